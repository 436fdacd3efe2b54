import { expect, test } from "bun:test";
import { Counter, Gauge, Histogram, MetricsRegistry } from "../../src/lib/metrics.ts";

test("renders counters, histograms and gauges in the Prometheus text format", () => {
  const r = new MetricsRegistry();
  const c = r.register(new Counter("reqs_total", "Requests.", ["route", "status"]));
  const h = r.register(new Histogram("lat_seconds", "Latency.", ["route"], [0.1, 1]));
  r.register(new Gauge("lag_seconds", "Lag.", () => 0.25));
  c.inc(["/a", "200"]);
  c.inc(["/a", "200"]);
  c.inc(['/b"x', "404"]);
  h.observe(["/a"], 0.05);
  h.observe(["/a"], 0.5);
  const text = r.render();
  expect(text).toContain("# TYPE reqs_total counter");
  expect(text).toContain('reqs_total{route="/a",status="200"} 2');
  expect(text).toContain('reqs_total{route="/b\\"x",status="404"} 1');
  expect(text).toContain('lat_seconds_bucket{route="/a",le="0.1"} 1');
  expect(text).toContain('lat_seconds_bucket{route="/a",le="1"} 2');
  expect(text).toContain('lat_seconds_bucket{route="/a",le="+Inf"} 2');
  expect(text).toContain('lat_seconds_count{route="/a"} 2');
  expect(text).toContain("lag_seconds 0.25");
});

test("collectors run before every render, so observations recorded after the fact are in the scrape", () => {
  const r = new MetricsRegistry();
  const c = r.register(new Counter("late_total", "Recorded late.", []));
  let waiting = 2;
  r.onCollect(() => {
    c.inc([], waiting);
    waiting = 0;
  });
  expect(r.render()).toContain("late_total 2");
  expect(r.render()).toContain("late_total 2");
});

test("a series kept by its caller is the one its labels name: observations through either add up", () => {
  const r = new MetricsRegistry();
  const h = r.register(new Histogram("tokens", "Tokens.", ["model", "type"], [10, 100]));
  const kept = h.seriesOf(["m", "input"]);
  h.record(kept, 5);
  h.observe(["m", "input"], 50);
  h.record(h.seriesOf(["m", "input"]), 500);
  const text = r.render();
  expect(text).toContain('tokens_bucket{model="m",type="input",le="10"} 1');
  expect(text).toContain('tokens_bucket{model="m",type="input",le="100"} 2');
  expect(text).toContain('tokens_count{model="m",type="input"} 3');
  expect(text).toContain('tokens_sum{model="m",type="input"} 555');
});
