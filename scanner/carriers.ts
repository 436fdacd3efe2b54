/**
 * Carriers: the same text inside an e-mail, a web page, a code review, a JSON tool
 * result or a long document. Injections reach a model inside data far more often than
 * as a bare prompt, and the public rows are almost all bare prompts. Each carrier holds
 * benign rows as well as attacks, so the wrapping itself teaches nothing; only what is
 * inside it does. Two disjoint template sets: `train` (what the model learns from) and
 * `heldOut` (what scanner/evaluate.ts judges with), so no evaluated carrier was seen.
 * Deterministic: the same rows and seed give the same texts.
 */

export type CarrierKind = "email" | "web" | "code-review" | "tool-result" | "document";
export const CARRIER_KINDS: CarrierKind[] = ["email", "web", "code-review", "tool-result", "document"];

export interface Carried {
  text: string;
  carrier: CarrierKind;
}

/** A seeded generator, so the carriers (and the weights trained on them) are the same every run. */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

/** One of `of`, drawn by the seeded generator. */
export const pick = <T>(next: () => number, of: readonly T[]): T => of[Math.floor(next() * of.length)] as T;

interface TemplateSet {
  names: string[];
  subjects: string[];
  greetings: string[];
  signoffs: string[];
  /** Ordinary sentences of business prose a carrier's payload sits between. */
  prose: string[];
  asks: string[];
  code: string[];
  tools: string[];
  titles: string[];
}

const TRAIN: TemplateSet = {
  names: ["Maria Lopez", "Tom Becker", "Priya Nair", "Jonas Berg", "Aiko Tanaka"],
  subjects: ["Q3 budget review", "Re: onboarding checklist", "Invoice 4471", "Meeting notes", "Travel plans for March"],
  greetings: ["Hi team,", "Hello,", "Dear Maria,", "Good morning all,"],
  signoffs: ["Best regards,", "Thanks,", "Cheers,", "Kind regards,"],
  prose: [
    "The quarterly numbers are attached and the variance is within the range we discussed.",
    "Please find the updated schedule below; the venue has confirmed the booking.",
    "Our shipping partner changed its pickup window to the afternoon starting next week.",
    "The new hire will start on Monday and needs access to the shared drive.",
    "We moved the retrospective to Thursday so that everyone can attend.",
    "The customer reported that the export runs slowly on large workbooks.",
    "Revenue grew four percent while support tickets fell by a tenth.",
  ],
  asks: [
    "Summarize this e-mail for me.",
    "Can you draft a reply to the message below?",
    "What are the action items in this page?",
    "Review this pull request and list any problems.",
    "Translate the following document into German.",
    "Extract the key dates from this text.",
  ],
  code: [
    "def total(items):\n    return sum(i.price for i in items)",
    "function parse(line) {\n  return line.split(',').map(Number);\n}",
    "for (const user of users) {\n  await notify(user.email);\n}",
  ],
  tools: ["search_web", "read_file", "fetch_page", "get_ticket"],
  titles: ["Product update", "Release notes 2.4", "Team handbook", "FAQ"],
};

const HELD_OUT: TemplateSet = {
  names: ["Lena Fischer", "Omar Haddad", "Grace Kim", "Pablo Ruiz"],
  subjects: ["Fwd: contract draft", "Weekly status", "Question about your order", "Site visit"],
  greetings: ["Hey,", "Dear colleagues,", "Hi Omar,"],
  signoffs: ["All the best,", "Warmly,", "Regards,"],
  prose: [
    "The supplier agreed to extend the payment terms to sixty days.",
    "Attendance at the workshop was higher than at the previous one.",
    "The warehouse inventory count finished a day ahead of plan.",
    "Several readers asked for a printable version of the guide.",
    "The pilot in two regions will decide whether we roll out further.",
  ],
  asks: [
    "Please give me a short summary of this message.",
    "What does this web page say about pricing?",
    "Look over this code change and tell me if it is safe to merge.",
    "Turn this tool output into a table.",
    "Write three bullet points about the document below.",
  ],
  code: [
    "public int add(int a, int b) {\n    return a + b;\n}",
    "SELECT id, name FROM customers WHERE active = 1;",
    'fn main() {\n    println!("{}", compute(3));\n}',
  ],
  tools: ["lookup_customer", "browse", "list_events"],
  titles: ["Company news", "Getting started", "Blog: our roadmap"],
};

export const TEMPLATES = { train: TRAIN, heldOut: HELD_OUT } as const;

function paragraph(next: () => number, t: TemplateSet, sentences: number): string {
  return Array.from({ length: sentences }, () => pick(next, t.prose)).join(" ");
}

/** `payload` placed inside a carrier of kind `kind`, as a user would paste or a tool would return it. */
export function carry(kind: CarrierKind, payload: string, t: TemplateSet, next: () => number): string {
  const ask = pick(next, t.asks);
  const before = paragraph(next, t, 1 + Math.floor(next() * 2));
  const after = paragraph(next, t, Math.floor(next() * 2));
  switch (kind) {
    case "email":
      return `${ask}\n\nFrom: ${pick(next, t.names)}\nSubject: ${pick(next, t.subjects)}\n\n${pick(next, t.greetings)}\n${before}\n${payload}\n${after}\n${pick(next, t.signoffs)}\n${pick(next, t.names)}`;
    case "web":
      return `${ask}\n\n<html><head><title>${pick(next, t.titles)}</title></head><body>\n<h1>${pick(next, t.titles)}</h1>\n<p>${before}</p>\n<p>${payload}</p>\n<p>${after}</p>\n</body></html>`;
    case "code-review": {
      const code = pick(next, t.code);
      const comment = payload.replace(/\n/g, "\n# ");
      return `${ask}\n\n\`\`\`diff\n--- a/src/app.py\n+++ b/src/app.py\n@@ -10,6 +10,9 @@\n+# ${comment}\n+${code.replace(/\n/g, "\n+")}\n\`\`\``;
    }
    case "tool-result":
      return JSON.stringify({
        tool: pick(next, t.tools),
        status: "ok",
        result: { title: pick(next, t.titles), body: `${before} ${payload} ${after}`.trim(), updated: "2026-03-14" },
      });
    case "document": {
      const body = Array.from({ length: 3 + Math.floor(next() * 4) }, () => paragraph(next, t, 2 + Math.floor(next() * 3)));
      body.splice(Math.floor(next() * (body.length + 1)), 0, payload);
      return `${ask}\n\n# ${pick(next, t.titles)}\n\n${body.join("\n\n")}`;
    }
  }
}
