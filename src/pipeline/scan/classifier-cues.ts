/**
 * Cue classes for the injection classifier: words grouped by the part they play in
 * an instruction aimed at the assistant (overriding, the earlier rules, addressing the
 * model, a mode switch, revealing, ...). The classifier sees sequences of classes
 * (classifier-features.ts), not only words, so "discard the earlier guidance" counts
 * like "ignore the previous instructions" though no training row wrote it that way,
 * and a request that merely uses one such word ("ignore the noise") has no sequence.
 */

/** Class ids; 0 is no class. Fewer than 32, so a class fits in five bits. */
export const CUE_CLASSES: Record<string, string[]> = {
  override: [
    "ignore",
    "ignoring",
    "disregard",
    "forget",
    "override",
    "bypass",
    "neglect",
    "abandon",
    "discard",
    "overlook",
    "skip",
    "cancel",
    "cancelled",
    "void",
    "supersede",
    "supersedes",
    "replace",
    "scrap",
    "dismiss",
    "ignoriere",
    "ignorieren",
    "vergiss",
    "vergessen",
    "missachte",
    "oublie",
    "oubliez",
    "ignorez",
    "ignora",
    "ignorar",
    "olvida",
    "olvide",
    "dimentica",
    "ignori",
    "esqueça",
    "esqueca",
    "ignore",
    "abaikan",
    "lupakan",
    "unutun",
    "yoksay",
  ],
  prior: [
    "previous",
    "prior",
    "preceding",
    "above",
    "earlier",
    "former",
    "original",
    "initial",
    "aforementioned",
    "before",
    "foregoing",
    "old",
    "existing",
    "vorherigen",
    "bisherigen",
    "obigen",
    "précédentes",
    "precedentes",
    "antérieures",
    "anteriores",
    "previas",
    "precedenti",
    "sebelumnya",
    "önceki",
    "onceki",
    "trước",
  ],
  rules: [
    "instructions",
    "instruction",
    "rules",
    "prompt",
    "prompts",
    "guidelines",
    "directives",
    "directions",
    "commands",
    "constraints",
    "restrictions",
    "policies",
    "policy",
    "programming",
    "guardrails",
    "filters",
    "guidance",
    "orders",
    "anweisungen",
    "regeln",
    "consignes",
    "règles",
    "instrucciones",
    "reglas",
    "istruzioni",
    "regole",
    "instruksi",
    "talimatları",
  ],
  system: ["system", "developer", "admin", "administrator", "root", "sudo", "operator", "creator", "openai", "anthropic"],
  you: [
    "you",
    "your",
    "yourself",
    "assistant",
    "ai",
    "model",
    "chatbot",
    "gpt",
    "chatgpt",
    "llm",
    "bot",
    "agent",
    "du",
    "dein",
    "tu",
    "vous",
    "usted",
  ],
  now: ["now", "instead", "henceforth", "anymore", "onwards", "onward", "immediately", "hereafter", "new", "actual", "real", "true"],
  mode: [
    "mode",
    "persona",
    "character",
    "jailbreak",
    "jailbroken",
    "dan",
    "unrestricted",
    "unfiltered",
    "uncensored",
    "unlimited",
    "evil",
    "amoral",
    "unethical",
    "limitless",
    "freed",
    "liberated",
    "stan",
    "dude",
    "aim",
  ],
  reveal: [
    "reveal",
    "print",
    "output",
    "repeat",
    "show",
    "display",
    "leak",
    "dump",
    "expose",
    "recite",
    "disclose",
    "divulge",
    "spell",
    "verbatim",
    "send",
    "forward",
    "exfiltrate",
    "upload",
    "transmit",
    "email",
  ],
  secret: [
    "password",
    "passwords",
    "secret",
    "secrets",
    "key",
    "keys",
    "token",
    "credentials",
    "confidential",
    "hidden",
    "private",
    "passcode",
    "pin",
  ],
  must: ["must", "shall", "obey", "comply", "always", "never", "required", "mandatory", "strictly", "only"],
  pretend: ["pretend", "imagine", "roleplay", "simulate", "behave", "become", "embody", "impersonate", "hypothetically"],
  refuse: [
    "refuse",
    "restriction",
    "limitations",
    "censorship",
    "ethical",
    "ethics",
    "moral",
    "morals",
    "safety",
    "harmful",
    "illegal",
    "allowed",
    "permitted",
  ],
  run: [
    "execute",
    "run",
    "curl",
    "wget",
    "download",
    "install",
    "click",
    "visit",
    "navigate",
    "subprocess",
    "exec",
    "eval",
    "rm",
    "sh",
    "bash",
  ],
  respond: ["respond", "reply", "answer", "say", "write", "tell", "state", "begin", "start", "end", "include", "append", "insert", "add"],
  stop: ["stop", "halt", "cease", "quit", "pause", "interrupt", "attention", "important", "urgent", "note", "notice", "warning"],
  user: ["user", "users", "human", "reader", "recipient", "customer", "visitor", "anyone"],
};

/** A folded word's hash as featureHashes computes it: FNV-like over its folded character codes. */
export function wordHash(word: string): number {
  let h = 0;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h;
}

export const CUE_BITS = 12;
const CUE_SIZE = 1 << CUE_BITS;

/**
 * An open-addressed table from a word's hash to its class: the word hashes at
 * `CUE_KEYS[slot]`, the class at `CUE_CLASS[slot]`, probed from the hash's top bits.
 * Two loads a word in the common case, where the slot is empty.
 */
export const CUE_KEYS = new Int32Array(CUE_SIZE);
export const CUE_CLASS = new Uint8Array(CUE_SIZE);

Object.values(CUE_CLASSES).forEach((words, i) => {
  for (const word of words) {
    const h = wordHash(word);
    let slot = h >>> (32 - CUE_BITS);
    while (CUE_CLASS[slot] !== 0 && CUE_KEYS[slot] !== h) slot = (slot + 1) & (CUE_SIZE - 1);
    if (CUE_CLASS[slot] !== 0) continue;
    CUE_KEYS[slot] = h;
    CUE_CLASS[slot] = i + 1;
  }
});

/** The class of the word with hash `h`, 0 for none. */
export function cueClass(h: number): number {
  let slot = h >>> (32 - CUE_BITS);
  for (;;) {
    const c = CUE_CLASS[slot] as number;
    if (c === 0 || CUE_KEYS[slot] === h) return c;
    slot = (slot + 1) & (CUE_SIZE - 1);
  }
}
