/**
 * A document split into prose and protected parts. Fenced code blocks (``` or ~~~)
 * and quoted data (lines starting with `>`) are protected: no transformation touches
 * them, since whitespace and repetition there can carry meaning.
 */
export interface Segment {
  text: string;
  protected: boolean;
}

const FENCE = /^\s*(```|~~~)/;
const QUOTE = /^\s*>/;

export function splitSegments(text: string): Segment[] {
  const out: Segment[] = [];
  const push = (line: string, prot: boolean) => {
    const last = out.at(-1);
    if (last && last.protected === prot) last.text += `\n${line}`;
    else out.push({ text: line, protected: prot });
  };
  let fence: string | null = null;
  for (const line of text.split("\n")) {
    if (fence !== null) {
      push(line, true);
      if (line.trim().startsWith(fence)) fence = null;
      continue;
    }
    const open = FENCE.exec(line);
    if (open) {
      fence = open[1]!;
      push(line, true);
      continue;
    }
    push(line, QUOTE.test(line));
  }
  return out;
}

export const joinSegments = (segments: readonly Segment[]): string => segments.map((s) => s.text).join("\n");
