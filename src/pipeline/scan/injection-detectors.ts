/**
 * Prompt injection, scored: each pattern adds its weight, and a text is blocked at
 * the threshold (engine.ts). Strong signals (overriding instructions, fake chat
 * turns, invisible control characters) reach it alone; weaker ones need company, so
 * everyday phrases ("ignore the previous error", "ignore a file in git") and
 * discussions about injection pass. English, German, French and Spanish forms.
 */
import type { Detector } from "./detector.ts";

const inj = (kind: string, weight: number, pattern: string, start?: Detector["start"]): Detector => ({ kind, category: "injection", weight, pattern, start });

const PRIOR_EN = "(?:all |any |the |your |my |these |those )?(?:previous|prior|preceding|above|earlier|former|original|initial|system) ";
const RULES_EN = "(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|commands|context|constraints)";

export const INJECTION_DETECTORS: Detector[] = [
  // Instruction override
  inj("instruction_override", 1.0, `\\b(?:ignore|disregard|forget|skip|override|bypass|neglect|drop) ${PRIOR_EN}${RULES_EN}\\b`),
  inj("instruction_override", 1.0, `\\b(?:ignore|disregard|forget) (?:everything|all|anything) (?:you (?:were|have been) told|(?:written |said )?(?:above|before|previously))`),
  inj("instruction_override", 0.8, `\\b(?:new|updated|real|actual) (?:system )?instructions?:`),
  inj("instruction_override", 1.0, `\\b(?:ignore|disregard|bypass|override|violate) (?:all |any |your |the |its )?(?:content|safety|usage|moderation) (?:polic(?:y|ies)|rules|guidelines|filters)\\b`),
  inj("instruction_override", 0.6, `\\b(?:ignore|disregard|bypass|disable) (?:all |any |your |the )?(?:filters|guardrails|safeguards|restrictions)\\b`),
  inj("prompt_extraction", 0.5, `\\breveal (?:the |any |all )?(?:confidential|secret|hidden|private|internal) (?:data|information|instructions|details)\\b`),
  inj("instruction_override", 0.7, `\\bfrom now on,? (?:you (?:will|must|are)|ignore|respond)`),
  // System prompt extraction
  inj("prompt_extraction", 1.0, `\\b(?:reveal|show|print|repeat|output|display|leak|dump|expose|recite|give me|tell me|write out) (?:me )?(?:your |the |all |of |every |full |entire |complete |exact |original |hidden |secret |initial |verbatim )*(?:system prompt|system message|initial instructions|hidden instructions|original instructions|instructions (?:above|you were given)|developer (?:message|prompt)|prompt above)`),
  inj("prompt_extraction", 0.6, `\\bwhat (?:is|are|was|were) (?:your|the) (?:system prompt|initial instructions|hidden instructions|original instructions)`),
  inj("prompt_extraction", 1.0, `\\brepeat (?:the )?(?:words|text|everything) above\\b`),
  // Role hijack
  inj("role_hijack", 1.0, `\\byou are (?:now |going to be )?(?:DAN|STAN|DUDE|AIM)\\b`),
  inj("role_hijack", 1.0, `\\bdo anything now\\b`),
  inj("role_hijack", 0.9, `\\b(?:developer|god|jailbreak|unrestricted|debug) mode (?:enabled|activated|on)\\b`),
  inj("role_hijack", 0.7, `\\b(?:enable|activate|enter|switch to) (?:developer|god|jailbreak|unrestricted|dan) mode\\b`),
  inj("role_hijack", 0.9, `\\b(?:act|behave|respond) as (?:an? )?(?:unfiltered|unrestricted|uncensored|jailbroken|evil)\\b`),
  inj("role_hijack", 1.0, `\\bpretend (?:that )?(?:you (?:have|had)|there (?:are|were)) no (?:restrictions|rules|guidelines|filters|limits|content polic(?:y|ies))`),
  inj("role_hijack", 0.8, `\\bwithout (?:any )?(?:restrictions|filters|censorship|ethical guidelines),? (?:answer|respond|tell)`),
  inj("role_hijack", 0.3, `\\bwithout (?:any )?(?:restrictions|filters|censorship|limitations|guardrails|content polic(?:y|ies))\\b`),
  inj("role_hijack", 0.5, `\\bjailbr(?:ea|o)k(?:en|ing)?\\b`),
  // Chat-template and delimiter injection
  inj("template_injection", 1.0, `<\\|im_start\\|>|<\\|im_end\\|>|<\\|system\\|>|<\\|endoftext\\|>|<\\|start_header_id\\|>|<\\|eot_id\\|>`, { at: "literal", literals: ["<|"] }),
  inj("template_injection", 1.0, `\\[/?INST\\]|<</?SYS>>`, { at: "literal", literals: ["[inst]", "[/inst]", "<<sys>>", "<</sys>>"] }),
  inj("template_injection", 1.0, `(?:^|\\n)\\s{0,3}#{2,4} ?(?:system|instruction|instructions|assistant) ?:?\\s{0,3}(?:\\n|$)`, { at: "line", first: "#" }),
  inj("template_injection", 0.9, `</?(?:system|system_prompt|sys)>`, { at: "literal", literals: ["<sys", "</sys"] }),
  inj("template_injection", 1.0, `(?:^|\\n)\\s{0,3}system ?: ?(?:you|ignore|new|override|from now)`, { at: "line", first: "s" }),
  // Invisible characters: Unicode tag characters and bidirectional overrides
  // Tag characters U+E0000-U+E007F, matched as their UTF-16 surrogate pairs.
  inj("invisible_unicode", 1.0, `\\uDB40[\\uDC00-\\uDC7F]`, { at: "invisible" }),
  inj("invisible_unicode", 1.0, `[\\u202A-\\u202E\\u2066-\\u2069]`, { at: "invisible" }),
  // German
  inj("instruction_override", 1.0, `\\b(?:ignoriere|ignorieren sie|vergiss|vergessen sie|missachte) (?:alle |die |deine |ihre |sämtliche )?(?:vorherigen |bisherigen |obigen |vorigen |ursprünglichen )?(?:anweisungen|instruktionen|regeln|befehle|vorgaben)\\b`),
  inj("prompt_extraction", 1.0, `\\b(?:zeige|zeig|nenne|gib|verrate) (?:mir )?(?:deinen|deine|den|die|ihren) (?:system-?prompt|systemanweisungen|ursprünglichen anweisungen)`),
  // French
  inj("instruction_override", 1.0, `\\b(?:ignore|ignorez|ignorer|oublie|oubliez|oublier) (?:toutes |tous )?(?:les |tes |vos )?(?:instructions|consignes|règles|directives) (?:précédentes|antérieures|ci-dessus|initiales)`),
  inj("prompt_extraction", 1.0, `\\b(?:révèle|révélez|montre|montrez|affiche|donne)(?:-moi)? (?:moi )?(?:ton|votre|le) (?:prompt (?:système|systeme)|message système|prompt initial)`),
  // Spanish
  inj("instruction_override", 1.0, `\\b(?:ignora|ignore|ignorar|olvida|olvide|olvidar) (?:todas )?(?:las |tus |sus )?(?:instrucciones|reglas|indicaciones|órdenes) (?:anteriores|previas|de arriba|iniciales)`),
  inj("prompt_extraction", 1.0, `\\b(?:muestra|muéstrame|revela|revélame|dime|enséñame) (?:me )?(?:tu|su|el) (?:prompt (?:del|de) sistema|mensaje (?:del|de) sistema|instrucciones (?:iniciales|originales))`),
];
