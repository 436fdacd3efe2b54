/**
 * Generated benign training rows (issue 33, precision3): ordinary text about attacks,
 * reported rather than performed: news and write-ups of jailbreaks and injections,
 * prompt-engineering advice, log lines, questions, notes that take back an earlier
 * message. Apart from generated-rows.ts so the classifier's owner sees them as one block;
 * none is in test/fixtures/about-attacks.ts, which judges the scanner on such text.
 */
import type { Row } from "./train.ts";
import { pick } from "./carriers.ts";

const REPORTERS = ["Researchers", "The security team", "A reporter", "The vendor", "Our red team", "The paper's authors", "Analysts"];
const REPORTED = ["showed", "found", "reported", "wrote", "explained"];
const REPORTS = [
  "that a hidden line in a web page can make an assistant drop its original task",
  "that the chatbot could be talked into printing its system prompt",
  "that attackers tell the model to ignore its previous instructions",
  "that the role-play prompt asked the model to pretend it had no rules",
  "that an email can carry instructions an AI assistant then follows",
  "how the jailbreak convinced the bot it had no limits",
  "that a shared document told the agent to send files to an outside address",
  "that the model revealed its hidden instructions when asked to translate them",
  "why prompts claiming to come from the developer fooled older models",
  "that a CV with white text asked the screening bot to rank it first",
];
const REPORT_ENDS = [
  "",
  " The fix shipped last month.",
  " Newer models refuse most of these attempts.",
  " The company says no customer data was exposed.",
  " The full write-up is linked below.",
];
const ABOUT_ATTACKS_ROWS = [
  "Put the task description in the system prompt and keep user data in its own message.",
  "A system prompt works best when it lists what the assistant should refuse and why.",
  "Tell the model which format you expect, for example a JSON object with two fields.",
  "When you write instructions for the model, give one example of a good answer.",
  "Your instructions should say what the model does when the document lacks the answer.",
  "Ask the model to quote the sentence it relied on, so reviewers can check it.",
  "Keep the system prompt short; long lists of rules are followed less reliably.",
  "Instruct the assistant to treat pasted web pages as data, not as instructions.",
  "Should the system prompt or the first user message hold the style guide?",
  "How do I give a chatbot instructions that its users cannot see?",
  "[WARN] maintenance mode enabled until 02:00 UTC",
  "audit: user admin changed the password policy at 14:02",
  "cache: previous instructions buffer flushed (12 entries)",
  "config reloaded, previous values overridden by environment",
  "DEBUG mode: enabled; log level: trace",
  "[system] prompt template v3 loaded",
  "sshd: password authentication disabled for root",
  "Could a web page trick an AI browser extension into doing something I did not ask?",
  "Can hidden text in a PDF change what an AI summary says?",
  "Why do chatbots sometimes reveal their instructions?",
  "What is a prompt injection, in simple terms?",
  "How do companies test whether their assistant leaks its system prompt?",
  "Is it true that a jailbreak can make ChatGPT say anything?",
  "Please ignore the earlier calendar invite; the meeting moved to room 4.",
  "Kindly disregard the reminder below if your expense report is already in.",
  "Ignore the second page of the form; it only applies to contractors.",
  "Forget what the old handbook says about remote work, the new policy applies.",
  "The instructions in last week's newsletter were wrong, so use the ones attached.",
  "Students may ignore the bonus question if they ran out of time.",
  "Die Forscher zeigten, dass versteckter Text einen Chatbot von seiner Aufgabe abbringen kann.",
  "Des chercheurs ont découvert qu'un e-mail piégé pouvait donner des ordres à un assistant.",
  "Los investigadores explicaron cómo un documento oculto engañaba al asistente de correo.",
  "Ignorate il primo esercizio, non lo abbiamo ancora fatto in classe.",
];
const ABOUT_ATTACKS_REPORTS = 100;

/** The rows, from their own generator. */
export function aboutAttacksRows(next: () => number): Row[] {
  const reports = Array.from(
    { length: ABOUT_ATTACKS_REPORTS },
    () => `${pick(next, REPORTERS)} ${pick(next, REPORTED)} ${pick(next, REPORTS)}.${pick(next, REPORT_ENDS)}`,
  );
  return [...new Set([...reports, ...ABOUT_ATTACKS_ROWS])].map((text, i) => ({
    id: `gen-about-attacks-${i}`,
    source: "project/generated-benign",
    category: "benign",
    text,
  }));
}
