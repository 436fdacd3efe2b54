/**
 * Cue classes for the injection classifier: words grouped by the part they play in
 * an instruction aimed at the assistant (overriding, the earlier rules, addressing the
 * model, a mode switch, revealing, ...). The classifier sees sequences of classes
 * (classifier-features.ts), not only words, so "discard the earlier guidance" counts
 * like "ignore the previous instructions" though no training row wrote it that way,
 * and a request that merely uses one such word ("ignore the noise") has no sequence.
 * Besides English, the common forms of the languages the generated rows cover.
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
    "игнорируй",
    "игнорировать",
    "забудь",
    "ігноруй",
    "zignoruj",
    "zapomnij",
    "negeer",
    "vergeet",
    "ignorera",
    "glöm",
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
    "предыдущие",
    "прежние",
    "попередні",
    "poprzednie",
    "wcześniejsze",
    "vorige",
    "eerdere",
    "tidigare",
    "föregående",
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
    "инструкции",
    "правила",
    "інструкції",
    "instrukcje",
    "zasady",
    "instructies",
    "regels",
    "instruktioner",
    "regler",
    "kurallar",
    "talimatlar",
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
    "выведи",
    "покажи",
    "виведи",
    "wypisz",
    "toon",
    "zeig",
    "affiche",
    "muestra",
    "mostra",
    "mostre",
    "tampilkan",
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
    "пароль",
    "hasło",
    "haslo",
    "wachtwoord",
    "lösenord",
    "şifre",
    "şifreyi",
    "sandi",
    "passwort",
    "contraseña",
    "senha",
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

/** The classes that name who an order is aimed at (the model, the system), as bits by class id. */
export const ADDRESS_CLASSES = ["you", "system"].reduce((bits, name) => bits | (1 << (Object.keys(CUE_CLASSES).indexOf(name) + 1)), 0);

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
/**
 * One bit a slot, set where CUE_CLASS is not 0: most words hash to an empty slot, and
 * this 512-byte table answers them. After a pause, a text's words read eight lines of
 * it instead of a line of the 4 KB class table each (1-2 µs of a cold 1 KB text).
 */
const CUE_TAKEN = new Int32Array(CUE_SIZE >>> 5);

Object.values(CUE_CLASSES).forEach((words, i) => {
  for (const word of words) {
    const h = wordHash(word);
    let slot = h >>> (32 - CUE_BITS);
    while (CUE_CLASS[slot] !== 0 && CUE_KEYS[slot] !== h) slot = (slot + 1) & (CUE_SIZE - 1);
    if (CUE_CLASS[slot] !== 0) continue;
    CUE_KEYS[slot] = h;
    CUE_CLASS[slot] = i + 1;
    CUE_TAKEN[slot >>> 5] = (CUE_TAKEN[slot >>> 5] as number) | (1 << (slot & 31));
  }
});

/** The class of the word with hash `h`, 0 for none. */
export function cueClass(h: number): number {
  let slot = h >>> (32 - CUE_BITS);
  if ((((CUE_TAKEN[slot >>> 5] as number) >>> (slot & 31)) & 1) === 0) return 0;
  for (;;) {
    const c = CUE_CLASS[slot] as number;
    if (c === 0 || CUE_KEYS[slot] === h) return c;
    slot = (slot + 1) & (CUE_SIZE - 1);
  }
}
