/** Building blocks every page uses: loading, empty and error states in words, the copy button, money. */
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import { NotAvailable } from "./api.ts";
import { RenderGuard } from "./render-guard.tsx";

export type Loaded<T> = { state: "loading" } | { state: "ready"; data: T } | { state: "failed"; error: Error };

/** Runs `load` now and whenever `reload` is called or a dependency changes. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []): [Loaded<T>, () => void] {
  const [value, setValue] = useState<Loaded<T>>({ state: "loading" });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setValue({ state: "loading" });
    load().then(
      (data) => live && setValue({ state: "ready", data }),
      (error: Error) => live && setValue({ state: "failed", error }),
    );
    return () => {
      live = false;
    };
  }, [tick, ...deps]);
  return [value, useCallback(() => setTick((t) => t + 1), [])];
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function Failure({ error, retry }: { error: Error; retry?: () => void }) {
  if (error instanceof NotAvailable) {
    return (
      <div class="notice-box" role="note">
        <strong>Not available on this gateway yet.</strong> {error.message} Nothing is shown rather than made-up numbers.
      </div>
    );
  }
  return (
    <div class="error-box" role="alert">
      {error.message}
      {retry && (
        <button type="button" class="link" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** Renders `children(data)` once loaded, behind a RenderGuard; loading and failure in words otherwise. */
export function Async<T>({
  value,
  what,
  retry,
  children,
}: {
  value: Loaded<T>;
  what: string;
  retry?: () => void;
  children: (data: T) => ComponentChildren;
}) {
  if (value.state === "loading") return <Loading what={what} />;
  if (value.state === "failed") return <Failure error={value.error} retry={retry} />;
  return (
    <RenderGuard what={what} data={value.data}>
      <Rendered render={() => children(value.data)} />
    </RenderGuard>
  );
}

/** Calls `render` as a component of its own, so what it throws reaches the guard above it. */
function Rendered({ render }: { render: () => ComponentChildren }) {
  return <>{render()}</>;
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [done, setDone] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setDone("copied");
    } catch {
      setDone("failed");
    }
  };
  return (
    <button type="button" onClick={copy} aria-live="polite">
      {done === "copied" ? "Copied" : done === "failed" ? "Copy failed: select and copy by hand" : label}
    </button>
  );
}

/** The one-time display of a secret: shown here, never again. */
export function SecretOnce({ title, value, onDone }: { title: string; value: string; onDone: () => void }) {
  return (
    <section class="secret" aria-labelledby="secret-title">
      <h3 id="secret-title">{title}</h3>
      <p>Copy it now: it is shown this once and cannot be shown again.</p>
      <div class="secret-row">
        <code data-testid="secret-value">{value}</code>
        <CopyButton value={value} />
      </div>
      <button type="button" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}

export const dollars = (micros: number) =>
  `$${(micros / 1e6).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: micros !== 0 && Math.abs(micros) < 10_000 ? 6 : 2 })}`;
export const centsToDollars = (cents: number | null) =>
  cents === null ? "none" : `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");
export const percent = (part: number, whole: number) => (whole === 0 ? "–" : `${((part / whole) * 100).toFixed(1)}%`);

/** Runs an action, showing its error in words; returns whether it succeeded. */
export function useAction(): [string | null, boolean, (run: () => Promise<void>) => Promise<boolean>] {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = async (run: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await run();
      return true;
    } catch (err) {
      setError((err as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return [error, busy, act];
}

export function ActionError({ error }: { error: string | null }) {
  return error ? (
    <p class="error-box" role="alert">
      {error}
    </p>
  ) : null;
}

/**
 * A form behind its "Add …" button: submitted, it runs `save` with the form's data, then
 * clears the form (a key typed into it leaves the page at once), closes and calls
 * `onAdded`; a failure stays on the form.
 */
export function AddForm(props: {
  title: string;
  submitLabel: string;
  save: (data: FormData) => Promise<void>;
  onAdded: () => void;
  children: ComponentChildren;
}) {
  const [error, busy, act] = useAction();
  const [open, setOpen] = useState(false);
  const submit = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    void act(async () => {
      await props.save(data);
      form.reset();
      setOpen(false);
      props.onAdded();
    });
  };
  if (!open)
    return (
      <button type="button" class="primary" onClick={() => setOpen(true)}>
        {props.title}
      </button>
    );
  return (
    <form class="panel" onSubmit={submit} aria-label={props.title}>
      {props.children}
      <ActionError error={error} />
      <div class="row">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? "Adding…" : props.submitLabel}
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
