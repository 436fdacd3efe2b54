/**
 * Generated benign training rows (issue 33, triggertrain): ordinary text built on the words
 * attacks use, of the kinds the public pools lack and the reserved evaluation sources hold:
 * mindfulness and coaching ("ignore the noise and focus on ..."), negated overrides ("don't
 * ignore the earlier warnings"), instructions owned by someone else (a recipe's, a
 * landlord's), "forget everything you know about X" said to a learner, file and UI names,
 * IT help, children's role-play, the same in seven other languages (generated-triggers-
 * languages.ts), and some of them inside an e-mail or a document. Written for the project
 * (no outside text, none of test/fixtures/ordinary-triggers.ts, which stays the test),
 * seeded, trained on and never evaluated (source `project/generated-triggers`).
 */
import { pick, random } from "./carriers.ts";
import { languageTriggerRows } from "./generated-triggers-languages.ts";
import type { Row } from "./train.ts";

export const TRIGGERS_SOURCE = "project/generated-triggers";

/** Slot lists, shared by the templates below: `{name}` takes one of SLOTS.name. */
const SLOTS: Record<string, readonly string[]> = {
  distraction: [
    "noise of the traffic",
    "thoughts about work",
    "itch on your nose",
    "voices in the hallway",
    "urge to check your phone",
    "ticking clock",
    "ache in your legs",
    "to-do list in your head",
  ],
  focus: [
    "the air moving through your nose",
    "the weight of your feet on the floor",
    "the rhythm of your steps",
    "one slow exhale",
    "the sounds furthest away",
    "the warmth of your hands",
  ],
  worry: [
    "last week's bad result",
    "the scoreboard",
    "what the other runners are doing",
    "the judges' faces",
    "your first attempt",
    "the crowd in the stands",
  ],
  sport: ["serve", "free throw", "penalty kick", "putt", "dive", "sprint start", "high jump"],
  warning: ["warnings", "reminders", "safety notes", "notices", "alerts", "caution signs"],
  owner: [
    "the electrician",
    "the school nurse",
    "the ferry crew",
    "the park ranger",
    "the dentist",
    "the lab supervisor",
    "the mountain guide",
    "the vet",
  ],
  ownerPossessive: [
    "the recipe's",
    "the landlord's",
    "the coach's",
    "the teacher's",
    "the manual's",
    "the midwife's",
    "the gardener's",
    "the tax advisor's",
    "the piano teacher's",
  ],
  ownedRule: [
    "for the sourdough say to let it rest for an hour",
    "for the radiators say to turn the valve only a quarter turn",
    "for the run say to warm up for ten minutes",
    "for the tomatoes say to soak the seeds overnight",
    "for the tax return say to keep the receipts for six years",
    "for the aquarium say to use lukewarm water",
    "for the recital say to practise the scale slowly",
    "for the boiler say to check the pressure every month",
  ],
  subject: [
    "knitting",
    "oil painting",
    "statistics",
    "salsa dancing",
    "French verbs",
    "bike repair",
    "birdwatching",
    "accounting",
    "pottery",
    "baseball",
    "spreadsheets",
    "sailing",
    "calligraphy",
    "music theory",
  ],
  fresh: [
    "we start with the basics",
    "this workshop turns it upside down",
    "the first lesson is all about listening",
    "let's build it up again step by step",
    "today we learn it the way children do",
    "the old habits only slow you down here",
  ],
  file: [
    "instructions.txt",
    "system_prompt.yaml",
    "PASSWORD_POLICY.md",
    "override.conf",
    "admin-instructions.pdf",
    "ignore-list.json",
    "rules_v2.xlsx",
    "prompt_templates/",
    "jailbreak-detector.log",
    "forget_me.sql",
  ],
  fileTask: [
    "add a table of contents",
    "fix the broken link in section 2",
    "convert it to UTF-8",
    "split it into two files",
    "check it into the repo",
    "rename it to match the others",
    "find the line that fails to parse",
  ],
  uiElement: [
    "system prompt field",
    "password policy page",
    "'Ignore this sender' button",
    "'Forget this network' option",
    "override switch in the thermostat app",
    "admin instructions tab",
    "'Act as user' menu",
    "developer options screen",
  ],
  uiProblem: [
    "is greyed out",
    "does not save anything",
    "disappeared after the update",
    "is hidden on small screens",
    "shows an empty list",
    "asks me to log in again",
  ],
  device: [
    "router",
    "Synology NAS",
    "school Chromebook",
    "Jenkins server",
    "printer's web panel",
    "WordPress site",
    "Ubuntu laptop",
    "smart TV",
  ],
  config: ["nginx", "Prettier", "ESLint", "Docker Compose", "the VS Code", "Postgres", "systemd"],
  character: [
    "a pirate",
    "a friendly dragon",
    "a space captain",
    "a grumpy wizard",
    "a talking cat",
    "a detective",
    "a dinosaur who loves maths",
  ],
  kid: ["my six-year-old", "my nephew", "a class of eight-year-olds", "my daughter", "two sleepy kids"],
  kidTopic: ["brushing teeth", "the planets", "sharing toys", "counting to twenty", "why leaves fall", "a lost sock"],
};

/** Templates over the slot lists, each with how many rows to draw from it. */
const TEMPLATES: [number, string][] = [
  // Mindfulness and coaching.
  [10, "Ignore the {distraction} and gently focus on {focus}."],
  [8, "Let the {distraction} pass, ignore it, and bring your attention back to {focus}."],
  [8, "Before your {sport}, forget {worry} and focus on the next breath."],
  [6, "Coach's tip: ignore {worry}, forget the last point, and play the next {sport} like it's the first."],
  [6, "For this meditation, set aside the {distraction}; notice {focus} instead."],
  // Negated overrides.
  [10, "Don't ignore the previous {warning} from {owner}; they are there for a reason."],
  [8, "Please never disregard the earlier {warning} posted by {owner}."],
  [6, "Remember: do not forget the instructions {owner} gave you before the trip."],
  [6, "I would not override the earlier advice from {owner} without asking first."],
  [5, "We shouldn't bypass the previous {warning}; {owner} wrote them after last year's accident."],
  // Instructions owned by someone else.
  [10, "{ownerPossessive} instructions {ownedRule}. Is that really necessary?"],
  [8, "Ignore {ownerPossessive} old sheet; the new instructions {ownedRule}."],
  [6, "Can you explain why {ownerPossessive} instructions {ownedRule}?"],
  [6, "According to {ownerPossessive} note, the previous instructions {ownedRule}, but that changed."],
  // Learners told to forget what they know.
  [12, "Forget everything you know about {subject}: {fresh}."],
  [8, "If you learned {subject} years ago, forget what you think you know, because {fresh}."],
  [6, "Welcome to the {subject} course! Forget all the rules you picked up online; {fresh}."],
  // File names and UI elements.
  [10, "Open {file} and {fileTask}."],
  [6, "Why does {file} keep getting overwritten? I need to {fileTask}."],
  [10, "The {uiElement} {uiProblem}. How do I fix that?"],
  [5, "Where is the {uiElement} in the new settings layout?"],
  // IT help.
  [8, "How do I reset the admin password on my {device}?"],
  [6, "I forgot the root password of the {device}; what are my options?"],
  [8, "How can I override the default {config} config for a single project?"],
  [5, "Is it safe to ignore the 'system update available' prompt on my {device} for a week?"],
  [5, "Show me how to bypass the proxy for localhost in the {config} settings."],
  // Children's games and role-play.
  [10, "Act as {character} and tell {kid} a short bedtime story about {kidTopic}."],
  [8, "Let's play pretend: you are {character} and I am the shopkeeper. Teach {kid} about {kidTopic}."],
  [6, "From now on in this game you are {character}, and the rule is that {kid} asks the questions about {kidTopic}."],
];

/** Ordinary IT and operations lines, the way logs and admin notes write them. */
const LOG_LINES = [
  "[system] instructions cache warmed (58 entries)",
  "INFO system prompt templates synced to edge nodes",
  "DEBUG previous instructions table vacuumed in 3.2s",
  "WARN override of default config detected: LOG_FORMAT=json",
  "[deploy] rules engine restarted, previous rules archived",
  "INFO password policy updated: minimum length 14",
  "NOTICE ignore-list refreshed from upstream (212 hosts)",
  "[updater] new instructions bundle v7 downloaded",
  "audit: admin password rotated by scheduled job",
  "INFO forgetting stale sessions older than 30 days",
  "[agent] system instructions file missing, using defaults",
  "TRACE act_as_user=false impersonation disabled",
];

/** Frames an ordinary row is pasted into, as a user forwards mail or quotes a document. */
const MAIL_FRAMES = [
  "Subject: {subject}\n\nHi {person},\n\n{row}\n\nThanks,\n{sender}",
  "Forwarding this from {sender}:\n\n> {row}\n\nCan you turn it into a short checklist?",
  "Subject: Re: {subject}\n\n{row}\n\nSee you on Monday,\n{sender}",
];
const DOC_FRAMES = [
  "Handout, page 2\n\n{row}\n\nQuestions? Ask at the front desk.",
  "## Notes from the {subject} session\n\n- {row}\n- Next meeting in two weeks.",
  'Please summarize this paragraph from our newsletter: "{row}"',
];
const FRAME_SLOTS: Record<string, readonly string[]> = {
  subject: ["Thursday workshop", "club newsletter", "onboarding", "parents' evening", "the new schedule"],
  person: ["Lena", "Tom", "all", "team", "Priya"],
  sender: ["Marco", "Anika", "the front office", "Coach Ruiz", "Helen"],
};
/** Of the rows above, this many again inside an e-mail or a document frame. */
const FRAMED = 80;

const fill = (template: string, slots: Record<string, readonly string[]>, next: () => number): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => pick(next, slots[name] ?? [`{${name}}`]));

/** The rows: English templates, log lines, other languages, and some of each framed. */
export function generatedTriggerRows(seed = 47): Row[] {
  const next = random(seed);
  const texts = new Set<string>();
  for (const [count, template] of TEMPLATES)
    for (let i = 0; i < count; i++) {
      const text = fill(template, SLOTS, next);
      texts.add(text.charAt(0).toUpperCase() + text.slice(1));
    }
  for (const line of LOG_LINES) texts.add(line);
  for (const text of languageTriggerRows(next)) texts.add(text);
  const bare = [...texts];
  for (let i = 0; i < FRAMED; i++) {
    const row = pick(next, bare);
    const frame = pick(next, i % 2 === 0 ? MAIL_FRAMES : DOC_FRAMES);
    texts.add(
      fill(
        frame.replace("{row}", () => row),
        FRAME_SLOTS,
        next,
      ),
    );
  }
  return [...texts].map((text, i) => ({ id: `gen-triggers-${i}`, source: TRIGGERS_SOURCE, category: "benign", text }));
}
