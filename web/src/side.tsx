/**
 * The side of the organization a page acts on, sent as the request's `context.scope`
 * (docs/operations.md): the organization's providers, the signed-in person's own, or no
 * side (what the operation does without one). Pages say which in words.
 */
import type { Side } from "./api.ts";

/** Who is signed in, as the pages that act on a side need it. */
export interface Viewer {
  admin: boolean;
  id: string;
  email: string | null;
  organization: string;
}

/** "" is no side: the request carries no `context.scope`. */
export type Choice = Side | "";

export const yourself = (viewer: Viewer) => (viewer.email ? `yourself (${viewer.email})` : "yourself");

/** One radio button a side; `none` names what no side means on this page. */
export function SidePicker(props: { legend: string; none: string; viewer: Viewer; side: Choice; onChange: (side: Choice) => void }) {
  const options: [Choice, string][] = [
    ["", props.none],
    ["organization", `the organization (${props.viewer.organization})`],
    ["user", yourself(props.viewer)],
  ];
  return (
    <fieldset class="sides">
      <legend>{props.legend}</legend>
      {options.map(([value, words]) => (
        <label key={value} class="check">
          <input type="radio" name="side" value={value} checked={props.side === value} onChange={() => props.onChange(value)} /> {words}
        </label>
      ))}
    </fieldset>
  );
}
