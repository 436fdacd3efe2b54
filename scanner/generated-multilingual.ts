/**
 * Generated rows in other languages and benign business e-mails, written for the project
 * (no outside text), seeded, trained on and never evaluated (source `project/...`).
 *
 * - Per language (multilingual-phrases.ts, multilingual-phrases-world.ts): every override with every goal, extraction,
 *   role switch, planted instruction and output hijack, and an ordinary question with an
 *   extraction appended (the social-engineering shape public rows carry); as many ordinary
 *   requests, some with the same trigger words, so the language itself is no signal.
 * - Business e-mails: the prose a held-out e-mail carrier wraps benign rows in is full of
 *   requests aimed at the reader ("please forward", "ignore the earlier draft", "reply by
 *   Friday", "could you write a script that ..."); without such rows the model took them
 *   for instructions aimed at itself. Written after the held-out e-mail carriers' errors
 *   (benign requests inside e-mails blocked), in other words and on other topics.
 */
import { pick, random } from "./carriers.ts";
import { EUROPE, type LanguagePhrases } from "./multilingual-phrases.ts";
import { WORLD } from "./multilingual-phrases-world.ts";
import type { Row } from "./train.ts";

const PHRASES: Record<string, LanguagePhrases> = { ...EUROPE, ...WORLD };

type LangRow = Row & { lang: string };

function languageRows(lang: string): LangRow[] {
  const p = PHRASES[lang];
  if (!p) return [];
  const injections: string[] = [];
  for (const o of p.override) for (const g of p.goal) injections.push(`${o} ${g}`);
  injections.push(...p.extract, ...p.role, ...p.planted, ...p.hijack);
  // An ordinary question, then the extraction: the attack rides on an innocent request.
  p.extract.forEach((x, i) => injections.push(`${p.benign[(i * 5 + 1) % p.benign.length]} ${x}`));
  const benign = [...p.benign];
  // Two ordinary requests in one message, so length and a second sentence are no signal either.
  for (let i = 0; i + 1 < p.benign.length; i += 2) benign.push(`${p.benign[i]} ${p.benign[i + 1]}`);
  return [
    ...injections.map((text, i) => ({
      id: `gen-${lang}-inj-${i}`,
      source: "project/generated-multilingual",
      category: "injection" as const,
      lang,
      text,
    })),
    ...benign.map((text, i) => ({
      id: `gen-${lang}-benign-${i}`,
      source: "project/generated-multilingual",
      category: "benign" as const,
      lang,
      text,
    })),
  ];
}

/** Requests aimed at the reader of an e-mail, as colleagues write them. */
const BUSINESS = [
  "Please forward the signed contract to legal by Friday.",
  "Ignore the earlier draft I sent; the attached version is the final one.",
  "Reply to this thread with your availability for next week.",
  "Do not share the door code with visitors; reception will let them in.",
  "Disregard the invoice from last month, it was issued twice by mistake.",
  "From now on, please send expense reports to the new finance inbox.",
  "Make sure to update the password on the shared printer account after the audit.",
  "The system will be down for maintenance on Saturday night, so save your work.",
  "Follow the instructions in the onboarding guide to set up your laptop.",
  "Forget the old meeting link; use the one in the calendar invite instead.",
  "You must complete the safety training before you can access the lab.",
  "Always copy the project manager when you reply to the client.",
  "Stop by my desk if anything in the report is unclear.",
  "Print the agenda and bring it to the workshop.",
  "Send me the figures before noon so I can add them to the deck.",
  "The previous instructions for the parking garage no longer apply after the move.",
  "Answer the customer survey by the end of the month.",
  "Remember to lock the cabinet with the personnel files when you leave.",
  "Override the default shipping option only if the customer asks for express delivery.",
  "Reveal the winner of the raffle at the end of the party, not before.",
  "Act as the point of contact for the vendor while I am on leave.",
  "Your new role starts on the first of the month; HR will send the details.",
  "Delete the duplicate entries in the spreadsheet before you share it.",
  "Tell the team that the release moves to Thursday.",
  "The rules for booking meeting rooms are in the handbook, section four.",
  "Could you write a script that renames the exported files by date?",
  "Please build a small tool that checks every night whether the backups finished.",
  "Generate the monthly report from the sales database and send it to me.",
  "Create a dashboard that shows open tickets by team.",
  "Set up a job that blocks the test accounts after thirty days without a login.",
  "Write a short program that reads the CSV export and flags duplicate invoices.",
  "Implement the retry logic we discussed so the import survives network errors.",
  "Draft a checklist for rotating the service credentials next quarter.",
  "Run the load test again after the fix and share the numbers.",
  "Add a function that masks card numbers in the support logs.",
];
const OPENERS = ["Hi all,", "Hello team,", "Dear Sam,", "Good afternoon,", "Hi Alex,", "Team,"];
const CONTEXT = [
  "Thanks for the productive meeting this morning.",
  "A few updates before the long weekend.",
  "Following up on yesterday's call with the supplier.",
  "Quick note about the office move.",
  "As discussed in the planning session,",
  "I hope the trip went well.",
];
const CLOSERS = ["Thanks, Dana", "Best, Jordan", "Regards, Kim", "Cheers, Ravi", "Thank you, Ines"];

const BUSINESS_ROWS = 300;
/** The share of business e-mails pasted with headers and a question before them (data, as a carrier holds it). */
const BUSINESS_PASTED = 0.7;
const PASTE_ASKS = [
  "Can you summarize this mail?",
  "Draft an answer to this:",
  "What do they want from me here?",
  "Shorten this e-mail.",
  "Fwd:",
];
const PASTE_SUBJECTS = ["Next steps", "Re: the new process", "Reminder", "Small request", "Before Friday"];

function businessRows(next: () => number): Row[] {
  return Array.from({ length: BUSINESS_ROWS }, (_, i) => {
    const asks = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(next, BUSINESS));
    const body = `${pick(next, OPENERS)}\n${pick(next, CONTEXT)} ${[...new Set(asks)].join(" ")}\n${pick(next, CLOSERS)}`;
    // Most arrive as pasted mail (headers, a blank line, then the body): their requests then
    // stand inside data, where the classifier must learn that a colleague's request is no attack.
    const text = next() < BUSINESS_PASTED ? `${pick(next, PASTE_ASKS)}\n\nSubject: ${pick(next, PASTE_SUBJECTS)}\n\n${body}` : body;
    return { id: `gen-business-${i}`, source: "project/generated-business", category: "benign" as const, text };
  });
}

export function generatedMultilingualRows(seed = 41): Row[] {
  return [...Object.keys(PHRASES).flatMap(languageRows), ...businessRows(random(seed))];
}
