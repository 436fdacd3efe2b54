/**
 * The routing strategies and the one table of weights `balanced` uses. `task_type`
 * re-weights `balanced` only: a concrete axis (`cost`, `speed`, `quality`) means what it
 * says whatever the task.
 */
export const STRATEGIES = ["cost", "speed", "quality", "balanced"] as const;
export type Strategy = (typeof STRATEGIES)[number];

export const TASK_TYPES = ["chat", "reasoning", "code"] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export interface Weights {
  cost: number;
  speed: number;
  quality: number;
}

/**
 * `balanced` weights by task. Chat leans to cost (most chat traffic is cheap turns);
 * reasoning and code lean to quality, where a weaker model's wrong answer costs more
 * than the price difference.
 */
export const BALANCED_WEIGHTS: Record<TaskType, Weights> = {
  chat: { cost: 0.4, speed: 0.3, quality: 0.3 },
  reasoning: { cost: 0.2, speed: 0.1, quality: 0.7 },
  code: { cost: 0.25, speed: 0.15, quality: 0.6 },
};

/** The lowest catalog quality a candidate needs for a task; below it the model is not offered for that task. */
export const MIN_QUALITY: Record<TaskType, number> = { chat: 0, reasoning: 80, code: 75 };

export function isStrategy(value: unknown): value is Strategy {
  return typeof value === "string" && (STRATEGIES as readonly string[]).includes(value);
}

export function isTaskType(value: unknown): value is TaskType {
  return typeof value === "string" && (TASK_TYPES as readonly string[]).includes(value);
}

/** A concrete axis's weights: that axis alone. */
const AXIS_WEIGHTS: Record<Exclude<Strategy, "balanced">, Weights> = {
  cost: { cost: 1, speed: 0, quality: 0 },
  speed: { cost: 0, speed: 1, quality: 0 },
  quality: { cost: 0, speed: 0, quality: 1 },
};

/** The weights a strategy scores with: one axis alone, or `balanced`'s blend for the task. Shared tables: read only. */
export function weightsFor(strategy: Strategy, task: TaskType): Readonly<Weights> {
  return strategy === "balanced" ? BALANCED_WEIGHTS[task] : AXIS_WEIGHTS[strategy];
}
