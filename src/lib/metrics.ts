/**
 * A minimal Prometheus registry: counters and histograms keyed by a fixed label
 * tuple, rendered in the text exposition format. Whoever makes a label value keeps
 * it to a bounded vocabulary (route templates, status codes, known models with
 * `other` for the rest), never caller text, so the series count stays bounded.
 */

type LabelValues = readonly string[];

function labelText(names: readonly string[], values: LabelValues, extra = ""): string {
  const parts = names.map((n, i) => `${n}="${escapeLabel(values[i] ?? "")}"`);
  if (extra) parts.push(extra);
  return parts.length ? `{${parts.join(",")}}` : "";
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

interface Metric {
  render(): string;
}

/** One counter series: a caller that counts the same labels on every call keeps it instead of naming them each time. */
export interface CounterSeries {
  readonly values: LabelValues;
  n: number;
}

export class Counter implements Metric {
  private readonly series = new Map<string, CounterSeries>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labels: readonly string[] = [],
  ) {}

  /** The series of these label values, made on first use (at zero, so it is rendered once made). */
  seriesOf(values: LabelValues): CounterSeries {
    const id = values.join("\u0000");
    let s = this.series.get(id);
    if (!s) {
      s = { values, n: 0 };
      this.series.set(id, s);
    }
    return s;
  }

  inc(values: LabelValues = [], by = 1): void {
    this.seriesOf(values).n += by;
  }

  render(): string {
    let out = `# HELP ${this.name} ${this.help}\n# TYPE ${this.name} counter\n`;
    for (const s of this.series.values()) out += `${this.name}${labelText(this.labels, s.values)} ${s.n}\n`;
    return out;
  }
}

/** One histogram series: a caller that observes the same labels on every call keeps it instead of naming them each time. */
export interface HistogramSeries {
  readonly values: LabelValues;
  readonly counts: Float64Array;
  sum: number;
  n: number;
}

export class Histogram implements Metric {
  private readonly series = new Map<string, HistogramSeries>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labels: readonly string[],
    readonly buckets: readonly number[],
  ) {}

  /** The series of these label values, made on first use. */
  seriesOf(values: LabelValues): HistogramSeries {
    const id = values.join("\u0000");
    let s = this.series.get(id);
    if (!s) {
      s = { values, counts: new Float64Array(this.buckets.length), sum: 0, n: 0 };
      this.series.set(id, s);
    }
    return s;
  }

  observe(values: LabelValues, v: number): void {
    this.record(this.seriesOf(values), v);
  }

  /** An observation into a series of this histogram (from seriesOf). */
  record(s: HistogramSeries, v: number): void {
    const buckets = this.buckets;
    for (let i = 0; i < buckets.length; i++) if (v <= (buckets[i] as number)) s.counts[i]! += 1;
    s.sum += v;
    s.n += 1;
  }

  render(): string {
    let out = `# HELP ${this.name} ${this.help}\n# TYPE ${this.name} histogram\n`;
    for (const s of this.series.values()) {
      this.buckets.forEach((b, i) => {
        out += `${this.name}_bucket${labelText(this.labels, s.values, `le="${b}"`)} ${s.counts[i]}\n`;
      });
      out += `${this.name}_bucket${labelText(this.labels, s.values, 'le="+Inf"')} ${s.n}\n`;
      out += `${this.name}_sum${labelText(this.labels, s.values)} ${s.sum}\n`;
      out += `${this.name}_count${labelText(this.labels, s.values)} ${s.n}\n`;
    }
    return out;
  }
}

/** A value read at scrape time (cache sizes, flush lag). */
export class Gauge implements Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => number,
    readonly type: "gauge" | "counter" = "gauge",
  ) {}

  render(): string {
    return `# HELP ${this.name} ${this.help}\n# TYPE ${this.name} ${this.type}\n${this.name} ${this.read()}\n`;
  }
}

export class MetricsRegistry {
  private readonly metrics: Metric[] = [];
  private readonly collectors: (() => void)[] = [];

  register<M extends Metric>(m: M): M {
    this.metrics.push(m);
    return m;
  }

  /** Runs before every render: for observations recorded after the fact, so a scrape still sees them all. */
  onCollect(collect: () => void): void {
    this.collectors.push(collect);
  }

  render(): string {
    for (const collect of this.collectors) collect();
    return this.metrics.map((m) => m.render()).join("");
  }
}
