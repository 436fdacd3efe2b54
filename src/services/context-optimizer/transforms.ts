/**
 * The optimizer's transformations of prose (protected segments never reach them).
 * Each returns the new text; the caller compares to know whether it applied.
 * - normalization: Unicode NFC, line ends to \n, trailing spaces dropped, runs of spaces/tabs inside a line to one;
 * - deduplication: a paragraph (blank-line separated) seen before in the document is dropped;
 * - compression: runs of blank lines to one, and a boilerplate line (20+ characters) that recurs is kept only the first time.
 */

export function normalize(prose: string): string {
  return prose
    .normalize("NFC")
    .split("\n")
    .map((line) => {
      const indent = /^[ \t]*/.exec(line)![0];
      // Leading indentation is kept: in lists and outlines it is structure.
      return (
        indent +
        line
          .slice(indent.length)
          .replace(/[ \t]+/g, " ")
          .trimEnd()
      );
    })
    .join("\n");
}

const paragraphKey = (p: string) => p.trim().replace(/\s+/g, " ").toLowerCase();

const LEADING_BLANKS = /^(?:[ \t]*\n)*/;
const TRAILING_BLANKS = /(?:\n[ \t]*)*$/;
const EDGE_BLANKS = /^(?:[ \t]*\n)+|(?:\n[ \t]*)+$/g;

/**
 * `seen` spans the whole document, so a paragraph repeated across protected parts is still caught.
 * The blank lines at the prose's edges stay as they were: they separate it from the code
 * block or quote beside it, whichever paragraphs go.
 */
export function dedupeParagraphs(prose: string, seen: Set<string>): string {
  const lead = LEADING_BLANKS.exec(prose)![0];
  const rest = prose.slice(lead.length);
  const trail = TRAILING_BLANKS.exec(rest)![0];
  const core = rest.slice(0, rest.length - trail.length);
  if (core.trim() === "") return prose;
  // Dropping the first or last paragraph can leave a separator at an edge of the core, which had none.
  const kept = dedupeCore(core, seen).replace(EDGE_BLANKS, "");
  // Nothing left: one empty line keeps the neighbours apart.
  return kept.trim() === "" ? "" : lead + kept + trail;
}

function dedupeCore(prose: string, seen: Set<string>): string {
  const kept: string[] = [];
  // A dropped paragraph takes one separator with it: the one before it, or the next one when it came first.
  let dropNextSeparator = false;
  for (const para of prose.split(/(\n[ \t]*\n)/)) {
    if (/^\n[ \t]*\n$/.test(para)) {
      if (dropNextSeparator) dropNextSeparator = false;
      else kept.push(para);
      continue;
    }
    const key = paragraphKey(para);
    if (key === "") {
      kept.push(para);
      continue;
    }
    if (seen.has(key)) {
      if (kept.length && /^\n[ \t]*\n$/.test(kept.at(-1)!)) kept.pop();
      else dropNextSeparator = true;
      continue;
    }
    seen.add(key);
    kept.push(para);
  }
  return kept.join("");
}

const BOILERPLATE_MIN = 20;

export function compress(prose: string, linesSeen: Set<string>): string {
  const lines: string[] = [];
  for (const line of prose.split("\n")) {
    const key = line.trim();
    if (key.length >= BOILERPLATE_MIN) {
      if (linesSeen.has(key)) continue;
      linesSeen.add(key);
    }
    lines.push(line);
  }
  return lines.join("\n").replace(/\n(?:[ \t]*\n){2,}/g, "\n\n");
}
