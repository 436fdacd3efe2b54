/** A time-series chart (uPlot) sized to its container, in the page's colours. */
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";

export function TimeChart({
  label,
  days,
  values,
  format,
}: {
  label: string;
  days: string[];
  values: number[];
  format: (v: number) => string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
    const stroke = getComputedStyle(document.documentElement).getPropertyValue("--accent").trim() || "#2563eb";
    const plot = new uPlot(
      {
        width: el.clientWidth || 600,
        height: 220,
        series: [{}, { label, stroke, width: 2, fill: `${stroke}22`, value: (_u, v) => (v == null ? "–" : format(v)) }],
        axes: [{ stroke: "currentColor" }, { stroke: "currentColor", values: (_u, ticks) => ticks.map(format), size: labelRoom }],
        legend: { show: true },
      },
      [xs, values],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days.join(), values.join(), label]);
  return <div ref={box} class="chart" role="img" aria-label={`${label}, one point a day from ${days[0]} to ${days.at(-1)}`} />;
}

/**
 * The y axis's width from its widest label, as drawn: a fixed width cut "$0.00012" short.
 * uPlot asks again after laying out the ticks (cycle 2 onward); the first answer stands then.
 */
const labelRoom: uPlot.Axis.Size = (u, values, axisIdx, cycleNum) => {
  const axis = u.axes[axisIdx]!;
  if (cycleNum > 1) return (axis as { _size?: number })._size ?? 84;
  // Once drawn, uPlot keeps an axis's font as [css font, size in device pixels, size in css pixels].
  const font = (axis.font as unknown as [string, number, number] | undefined)?.[0];
  if (font) u.ctx.font = font;
  const widest = Math.max(0, ...(values ?? []).map((v) => u.ctx.measureText(String(v)).width / devicePixelRatio));
  return Math.ceil(widest + (axis.ticks?.size ?? 10) + (axis.gap ?? 5) + 8);
};

/** Dollars on an axis: small amounts keep two significant digits instead of showing $0.00. */
export const usd = (v: number) => (v === 0 ? "$0" : Math.abs(v) < 0.01 ? `$${v.toPrecision(2)}` : `$${v.toFixed(2)}`);
