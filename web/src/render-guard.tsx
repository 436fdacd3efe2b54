/**
 * An error boundary around one part of a page. Without one, an exception while rendering
 * (data of an unexpected shape, say) is thrown out of Preact's render queue: the component
 * keeps its last DOM and throws again on every later update, so the page looks stuck on
 * "Loading…" with no word of what went wrong. Here the part shows the error instead and
 * the rest of the page keeps working.
 */
import { Component, type ComponentChildren } from "preact";

interface Props {
  /** What this part shows, as in "Loading …" ("usage", "the audit log", "this page"). */
  what: string;
  /** The data rendered: new data gets a new attempt (a retry, a refresh, another page). */
  data: unknown;
  children: ComponentChildren;
}

interface State {
  error: Error | null;
  data: unknown;
}

export class RenderGuard extends Component<Props, State> {
  state: State = { error: null, data: this.props.data };

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.data === state.data ? null : { error: null, data: props.data };
  }

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(error: unknown): void {
    // Still reported where developers (and the browser test) look for errors.
    console.error(`render error in ${this.props.what}:`, error);
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div class="error-box" role="alert">
        Could not show {this.props.what} ({error.message}). Reload the page; if it happens again, tell your gateway's operator.
      </div>
    );
  }
}
