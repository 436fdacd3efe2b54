import { expect, test } from "bun:test";
import { fitHolt, forecastSum } from "../../../src/services/analytics/holt.ts";

test("a known linear trend forecasts exactly", () => {
  const ys = Array.from({ length: 30 }, (_, t) => 100 + 5 * t);
  const fit = fitHolt(ys);
  expect(fit.level).toBeCloseTo(245, 9);
  expect(fit.trend).toBeCloseTo(5, 9);
  // Next 7 days: 250, 255, ..., 280 -> 1855.
  expect(forecastSum(fit, 7)).toBeCloseTo(1855, 6);
});

test("a falling trend never forecasts a day below zero", () => {
  const fit = fitHolt([50, 40, 30, 20, 10]);
  expect(fit.trend).toBeCloseTo(-10, 9);
  expect(forecastSum(fit, 30)).toBe(0);
});

test("empty and one-day histories", () => {
  expect(fitHolt([])).toEqual({ level: 0, trend: 0, alpha: 0, beta: 0 });
  expect(forecastSum(fitHolt([]), 30)).toBe(0);
  const one = fitHolt([42]);
  expect(one).toMatchObject({ level: 42, trend: 0 });
  expect(forecastSum(one, 7)).toBe(294);
});

test("the fitted constants follow a noisy series more smoothly than a steady one", () => {
  const noisy = Array.from({ length: 40 }, (_, t) => 100 + (t % 2 === 0 ? 30 : -30));
  const fit = fitHolt(noisy);
  expect(fit.alpha).toBeLessThan(0.5);
  expect(Math.abs(fit.level - 100)).toBeLessThan(30);
});
