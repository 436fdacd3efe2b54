/**
 * Prompt injection, scored: each pattern adds its weight, and a text is blocked at
 * the threshold (engine.ts). Strong signals (overriding instructions, fake chat
 * turns, invisible control characters) reach it alone; weaker ones need company, so
 * everyday phrases ("ignore the previous error", "ignore a file in git") and
 * discussions about injection pass. English, German, French and Spanish forms here;
 * the files named at the end add other languages and other kinds of attack.
 */
import type { Detector } from "./detector.ts";
import { decodeBase64OrHex, decodePercent } from "./encoded-text.ts";
import { APART_INJECTION_DETECTORS } from "./injection-apart.ts";
import {
  CLAUSE_ENDS,
  MODEL_WORD,
  NOT_A_COMPOUND,
  NOT_A_CORRECTION,
  NOT_A_CORRECTION_NEXT,
  NOT_A_DOCUMENTS,
  NOT_A_RETRACTION,
  NOT_A_TOPIC,
  NOT_A_TRANSLATION,
  NOT_A_VENDOR_API,
  NOT_AN_ERRAND,
  NOT_ANOTHERS,
  NOT_ANOTHERS_DE,
  NOT_ANOTHERS_ROMANCE,
  NOT_FOUND,
  NOT_NEGATED_DE,
  NOT_NEGATED_VERB,
  notAnOwnersOrderAfter,
  past,
} from "./injection-rule-groups.ts";

const inj = (kind: string, weight: number, pattern: string, start?: Detector["start"]): Detector => ({
  kind,
  category: "injection",
  weight,
  pattern,
  start,
});

const PRIOR_EN = "(?:all |any |the |your |my |these |those )?(?:previous|prior|preceding|above|earlier|former|original|initial|system) ";
const RULES_EN = "(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|commands|context|constraints)";
/** What may stand after "everything above" before a retraction or a correction: "this line", "that message". */
const ABOVE_WHAT = " (?:this|that|the) (?:line|message|point|paragraph|note|section|part|email|mail)";
const RULES_EN2 =
  "(?:instructions?|prompts?|rules|directions?|directives?|guidelines|guardrails|commands|context|constraints|orders|programming|training|messages?|guidance|restrictions|policies|tasks?|techniques)";

export const INJECTION_DETECTORS: Detector[] = [
  // Instruction override
  // Not the caller taking back their own earlier request ("forget the previous instructions I gave").
  inj(
    "instruction_override",
    1.0,
    `\\b(?:ignore|disregard|forget|skip|override|bypass|neglect|drop) ${NOT_NEGATED_VERB}${PRIOR_EN}${RULES_EN}\\b(?<!\\bdrop (?:all |any |the |these |those )?(?:previous|prior|earlier|existing|old) constraints)(?! (?:that |which )?(?:i|we) (?:gave|sent|wrote|provided|mentioned|shared|posted|made|discussed|agreed|talked|set|used))${NOT_ANOTHERS}${NOT_A_TOPIC}${NOT_A_COMPOUND}${NOT_A_RETRACTION}${NOT_A_CORRECTION}`,
  ),
  inj(
    "instruction_override",
    1.0,
    `\\b(?:ignore|disregard|forget) ${NOT_NEGATED_VERB}(?:all of |everything )?(?:the |what(?:'s| is) )?(?:above|written above|said above)(?=\\s*(?:[.,;:!]|and\\b|then\\b|$))${NOT_A_RETRACTION}${NOT_A_CORRECTION}`,
  ),
  inj(
    "instruction_override",
    1.0,
    `\\b(?:ignore|disregard|forget) ${NOT_NEGATED_VERB}(?:everything|all|anything) (?:you (?:were|have been) told|(?:written |said )?(?:above|before|previously))${past(ABOVE_WHAT, NOT_A_RETRACTION)}${past(ABOVE_WHAT, NOT_A_CORRECTION)}`,
  ),
  // Started at the phrase, not at "new" alone: "the new plan" runs no expression (so is the rule below).
  inj("instruction_override", 0.8, `\\b(?:new|updated|real|actual) (?:system )?instructions?:${NOT_A_CORRECTION_NEXT}`, {
    at: "word",
    literals: ["new", "updated", "real", "actual"].flatMap((w) => [`${w} system instruction`, `${w} instruction`]),
  }),
  inj(
    "instruction_override",
    1.0,
    `\\b(?:ignore|disregard|bypass|override|violate) ${NOT_NEGATED_VERB}(?:all |any |your |the |its )?(?:content|safety|usage|moderation) (?:polic(?:y|ies)|rules|guidelines|filters)\\b`,
  ),
  inj(
    "instruction_override",
    0.6,
    `\\b(?:ignore|disregard|bypass|disable) (?:all |any |your |the )?(?:filters|guardrails|safeguards|restrictions)\\b(?! (?:on|in|of) (?:the|this|that|my|your|our) (?:spreadsheet|sheet|table|columns?|view|list|search|report|dashboard|pivot|camera|photos?|images?|pool|tank|aquarium|faucet|tap|vacuum|dryer)\\b)`,
  ),
  inj(
    "prompt_extraction",
    0.5,
    `\\breveal (?:the |any |all )?(?:confidential|secret|hidden|private|internal) (?:data|information|instructions|details)\\b`,
  ),
  // Not a duty handed to a colleague, nor a customer's notice ("from now on you are responsible for ...", "you will receive ...").
  inj(
    "instruction_override",
    0.7,
    `\\bfrom now on,? (?:you (?:will|must|are)(?! (?:responsible|in charge|accountable|receive|get|be (?:billed|charged|paid|invoiced|notified))\\b)|ignore|respond)`,
  ),
  // System prompt extraction
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:reveal|show|print|repeat|output|display|leak|dump|expose|disclose|recite|give me|tell me|write out) (?:me )?(?:your |the |all |of |every |full |entire |complete |exact |original |hidden |secret |initial |verbatim )*(?:system prompt|system message|initial instructions|hidden instructions|original instructions|instructions (?:above|you were given)|developer (?:message|prompt)|prompt above)${NOT_A_COMPOUND}`,
  ),
  inj(
    "prompt_extraction",
    0.6,
    `\\bwhat (?:is|are|was|were) (?:your|the) (?:system prompt|initial instructions|hidden instructions|original instructions)${NOT_A_VENDOR_API}`,
  ),
  // Not a translation of the writer's own text ("repeat the text above in French"), when nothing else is asked of it.
  inj("prompt_extraction", 1.0, `\\brepeat (?:the )?(?:words|text|everything) above\\b${NOT_A_TRANSLATION}`),
  // Role hijack
  inj("role_hijack", 1.0, `\\byou are (?:now |going to be )?(?:DAN|STAN|DUDE|AIM)\\b`),
  // Not the name used of the prompt ("the Do Anything Now craze", "DAN, short for Do Anything Now").
  inj("role_hijack", 1.0, `\\bdo anything now\\b(?<!\\b(?:the|short for|stood for) ["'“]?do anything now)`),
  // Not a device's or a log's setting ("... on my phone", "developer mode enabled, caching disabled").
  inj(
    "role_hijack",
    0.9,
    `\\b(?:developer|jailbreak|unrestricted) mode (?:enabled|activated|on)\\b(?! (?:my|the|your|a|an|this|his|her|their|our|its|android|ios|iphone|windows|chrome)\\b)(?!, ?[a-z_-]+(?: [a-z_-]+)? (?:enabled|disabled|on|off)\\b)`,
  ),
  // Not a device's setting ("enable developer mode on my phone").
  inj("role_hijack", 0.7, `\\b(?:enable|activate|enter|switch to) (?:developer|jailbreak|unrestricted|dan) mode\\b(?! (?:on|in|for|of) )`),
  inj("role_hijack", 0.9, `\\b(?:act|behave|respond) as (?:an? )?(?:unfiltered|unrestricted|uncensored|jailbroken|evil)\\b`),
  inj(
    "role_hijack",
    1.0,
    `\\bpretend (?:that )?(?:you (?:have|had)|there (?:are|were)) no (?:restrictions|rules|guidelines|filters|limits|content polic(?:y|ies))`,
  ),
  inj("role_hijack", 0.8, `\\bwithout (?:any )?(?:restrictions|filters|censorship|ethical guidelines),? (?:answer|respond|tell)`),
  inj("role_hijack", 0.3, `\\bwithout (?:any )?(?:restrictions|filters|censorship|limitations|guardrails|content polic(?:y|ies))\\b`),
  // Not a jailbreak named or reported ("a jailbreak called DAN", "the jailbreak worked by"), nor a phone's or a console's.
  inj(
    "role_hijack",
    0.5,
    `\\bjailbr(?:ea|o)k(?:en|ing)?\\b(?! (?:prompts? )?(?:called|named|known as|dubbed|chiamato|llamado|appelé|genannt|worked|works|was|were|asked|asks|told|tells|made|makes|got|gets|let|lets|tricked|stopped|communities|(?:for |of )?(?:the |my |your |an? )?(?:ios|iphone|ipad|android|nintendo|switch|ps[345]|playstation|kindle|console|phone|xbox|device|firestick))\\b)`,
  ),
  // Chat-template and delimiter injection
  inj(
    "template_injection",
    1.0,
    `<\\|im_start\\|>|<\\|im_end\\|>|<\\|system\\|>|<\\|endoftext\\|>|<\\|start_header_id\\|>|<\\|eot_id\\|>`,
    { at: "literal", literals: ["<|"] },
  ),
  inj("template_injection", 1.0, `\\[/?INST\\]|<</?SYS>>`, { at: "literal", literals: ["[inst]", "[/inst]", "<<sys>>", "<</sys>>"] }),
  // A fake turn (`### System:`) blocks; a bare heading (`## System`) or a prompt-format heading (`### Instruction:`) needs company.
  inj("template_injection", 1.0, `(?:^|\\n)\\s{0,3}#{2,4} ?(?:system|assistant) ?:\\s{0,3}(?:\\n|$)`, { at: "line", first: "#" }),
  inj("template_injection", 0.5, `(?:^|\\n)\\s{0,3}#{2,4} ?(?:system|assistant)\\s{0,3}(?:\\n|$)`, { at: "line", first: "#" }),
  inj("template_injection", 0.3, `(?:^|\\n)\\s{0,3}#{2,4} ?(?:instruction|instructions|response) ?:?\\s{0,3}(?:\\n|$)`, {
    at: "line",
    first: "#",
  }),
  inj("template_injection", 0.9, `</?(?:system|system_prompt|sys)>`, { at: "literal", literals: ["<sys", "</sys"] }),
  inj("template_injection", 1.0, `(?:^|\\n)\\s{0,3}system ?: ?(?:you|ignore|new|override|from now)`, { at: "line", first: "s" }),
  // Invisible characters: Unicode tag characters and bidirectional overrides
  // Tag characters U+E0000-U+E007F, matched as their UTF-16 surrogate pairs.
  inj("invisible_unicode", 1.0, `\\uDB40[\\uDC00-\\uDC7F]`, { at: "invisible" }),
  // Overrides reorder what a reader sees; embeddings and isolates also appear in ordinary right-to-left text
  // and around names (messaging apps wrap them in isolates), so they only add up.
  inj("invisible_unicode", 1.0, `[\\u202D\\u202E]`, { at: "invisible" }),
  inj("invisible_unicode", 0.2, `[\\u202A-\\u202C\\u2066-\\u2069]`, { at: "invisible" }),
  // Encoded instructions: decoded and scanned again (long enough to hold one).
  {
    kind: "encoded_instruction",
    category: "injection",
    weight: 1.0,
    pattern: "\\b(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{24,}={0,2}",
    start: { at: "base64-run" },
    decode: decodeBase64OrHex,
  },
  {
    kind: "encoded_instruction",
    category: "injection",
    weight: 1.0,
    pattern: "(?:%[0-9A-Fa-f]{2}){8,}",
    start: { at: "literal", literals: ["%"] },
    decode: decodePercent,
  },
  // Wider override phrasing: more verbs and nouns, determiners between. Qualified by
  // the earlier, given or the assistant's own rules it blocks; bare ("ignore the rules
  // of chess") it needs company.
  inj(
    "instruction_override",
    1.0,
    `\\b(?:ignore|disregard|forget|override|bypass|neglect|discard|overlook|abandon|dismiss|scrap|set aside) ${NOT_NEGATED_VERB}(?:all |any |every |each |of |the |your |these |those |such )*(?:other |given |previous |prior |preceding |above |earlier |former |original |initial |system |existing |current |old )(?:${MODEL_WORD} )?${RULES_EN2}\\b(?! (?:that |which )?(?:i|we) (?:gave|sent|wrote|provided|mentioned|shared|posted|made|discussed|agreed|talked|set|used))${NOT_ANOTHERS}${NOT_A_TOPIC}${NOT_A_COMPOUND}${NOT_A_RETRACTION}${NOT_A_CORRECTION}`,
  ),
  // Another word there names whose instructions ("disregard the previous homework instructions"): a teacher's or a colleague's, so it only adds up, with rules and not with the classifier (under RULES_CORROBORATE).
  inj(
    "instruction_override",
    0.25,
    `\\b(?:ignore|disregard|forget|override|bypass|neglect|discard|overlook|abandon|dismiss|scrap|set aside) ${NOT_NEGATED_VERB}(?:all |any |every |each |of |the |your |these |those |such )*(?:other |given |previous |prior |preceding |above |earlier |former |original |initial |system |existing |current |old )(?!${MODEL_WORD} )[a-z]+ ${RULES_EN2}\\b(?! (?:that |which )?(?:i|we) (?:gave|sent|wrote|provided|mentioned|shared|posted|made|discussed|agreed|talked|set|used))${NOT_ANOTHERS}${NOT_A_TOPIC}${NOT_A_COMPOUND}${NOT_A_RETRACTION}${NOT_A_CORRECTION}`,
  ),
  inj(
    "instruction_override",
    1.0,
    `\\b(?:ignore|disregard|forget|override|bypass|neglect|discard|overlook|abandon|dismiss) ${NOT_NEGATED_VERB}(?:all |any |every |each |of )*(?:your |the )?${RULES_EN2} (?:you(?:'ve| have)? (?:received|been given|were given|got)|(?:given|provided) to you|(?:above|before|so far))`,
  ),
  inj(
    "instruction_override",
    0.5,
    `\\b(?:ignore|disregard|forget|discard|overlook) ${NOT_NEGATED_VERB}(?:all |any |your |the )?${RULES_EN2}\\b(?! (?:that |which )?(?:i|we) (?:gave|sent|wrote|provided|mentioned|shared|posted|made|discussed|agreed|talked|set|used))${NOT_ANOTHERS}${NOT_A_TOPIC}${NOT_A_COMPOUND}${NOT_A_RETRACTION}${NOT_A_CORRECTION}`,
  ),
  inj(
    "instruction_override",
    1.0,
    `\\b(?:ignore|disregard|forget|overlook|discard) ${NOT_NEGATED_VERB}(?:about )?(?:all |everything )?(?:that |what(?:ever)? )?(?:you(?:'ve| have| were| had)?|has|had|have) (?:been |was )?(?:told|instructed|programmed|taught|given)\\b`,
  ),
  inj(
    "instruction_override",
    0.6,
    `\\b(?:forget|ignore|disregard) ${NOT_NEGATED_VERB}(?:about )?(?:everything|all that|all of (?:that|this))(?: (?:else|before|above|so far))?,? (?:and |then |now )`,
  ),
  inj(
    "instruction_override",
    1.0,
    `\\b(?:previous|prior|above|earlier|initial|original|system) ${RULES_EN2} (?:are|is|were|was) (?:now )?(?:no longer valid|void|cancelled|canceled|obsolete|fake|irrelevant|revoked|overridden|outdated|null)${CLAUSE_ENDS}(?![;,.:]? (?:please )?(?:see|check|read|use|refer to) (?:the )?(?:new|latest|updated|current|revised) (?:wiki|version|manual|page|edition|handbook|policy|document|guide|docs|website|site|intranet)\\b)`,
  ),
  inj(
    "instruction_override",
    0.8,
    `\\b(?:change|update|replace|reset|rewrite) your (?:instructions|rules|programming|guidelines|directives|system prompt) (?:to|with|as)\\b`,
  ),
  inj(
    "instruction_override",
    0.6,
    `\\b(?:new|real|actual|updated) (?:instructions|rules|directives?|orders) (?:are|follow|from now|below|as follows)\\b`,
    {
      at: "word",
      literals: ["new", "real", "actual", "updated"].flatMap((w) =>
        ["instructions ", "rules ", "directive", "orders "].map((n) => `${w} ${n}`),
      ),
    },
  ),
  // Instructions aimed at the assistant from inside data: an e-mail, a page or a tool
  // result that turns to "the AI" reading it, or asks it to act on the user.
  inj(
    "indirect_instruction",
    0.8,
    `\\byou are an? (?:ai|artificial intelligence|assistant|language model|llm|chatbot|bot|agent|automated system) (?:reading|processing|summari[sz]ing|parsing|scanning|reviewing)\\b`,
  ),
  inj(
    "indirect_instruction",
    0.7,
    // Not a job ("instructions for the assistant role"), nor a report of one found, nor instructions told of as given
    // ("the document gave instructions to the assistant to ...", "I left instructions for the assistant").
    // "Agents" bare are people, a support team or an agency ("attention all agents: the phone queue is down"); "AI agents" stay.
    `\\b(?:note|message|attention|instructions?|important)(?<!\\b(?:gave|give|gives|giving|given|left|leave|leaves|wrote|write|writes|sent|send|sends|had|has|have|with|without|follow|followed|follows) (?:[a-z]+ )?instructions?)(?: to| for)? (?:the |any |all )?(?!agents\\b)(?:ai|assistant|language model|llm|chatbot|bot|agent|model)s?\\b(?!['’]s\\b)(?! (?:role|position|job|manager|team|staff|director|coach|editor|desk|pool)s?\\b)${NOT_FOUND}`,
    // The word and its blank: a note to the model says whom it is for next ("notes" and "messages" in prose run nothing).
    { at: "word", literals: ["note ", "message ", "attention ", "instruction ", "instructions ", "important "] },
  ),
  inj(
    "indirect_instruction",
    0.8,
    `\\b(?:tell|ask|instruct|urge|convince|direct|remind) the (?:user|reader|recipient|customer|human) to (?:visit|click|go to|open|download|install|enter|send|call|reset|wire|transfer|log ?in|sign ?in|provide|share)\\b`,
  ),
  inj(
    "indirect_instruction",
    0.8,
    `\\b(?:include|insert|add|embed|meld|merge|integrate|incorporate|append|paste) (?:the following|this|these) (?:code|snippet|lines?|link|url|script|command|payload)\\b[^\\n]{0,60}?\\b(?:into|in|to) (?:your|the|every) (?:code|answer|response|reply|output|summary|result)`,
  ),
  inj("indirect_instruction", 0.5, `\\bstop (?:what you are doing|summari[sz]ing|translating|your (?:current )?task)\\b`),
  inj(
    "indirect_instruction",
    0.4,
    `\\binstead,? (?:of [^.\\n]{1,40}?,? )?(?:output|say|print|respond with|reply with|write|answer with)\\b`,
  ),
  // Extraction, wider: the assistant's own instructions asked for, in any framing; not a file's or a manual's
  // ("show the diff including the full instructions file", "print the full instructions for installing the driver").
  inj(
    "prompt_extraction",
    0.8,
    `\\bwhat (?:are|were|is|was) (?:your|the) (?:initial |original |first |hidden |secret |exact |full |system |current )?(?:instructions|rules|directives|prompt|system message|guidelines you were given)\\b${NOT_A_VENDOR_API}${NOT_AN_ERRAND}`,
  ),
  inj("prompt_extraction", 0.8, `\\bwhat (?:were|have) you (?:been )?(?:told|instructed|programmed) (?:before|to do|not to)\\b`),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:repeat|print|output|show|reveal|spell|translate|encode|summari[sz]e|paraphrase|rewrite|quote|write down|continue) (?:out )?(?:me )?(?:[a-z]+ ){0,4}(?:your|the) (?:initial|original|system|hidden|secret|first|full|entire|previous|above) (?:prompt|instructions|message|rules|text)\\b${NOT_A_DOCUMENTS}${NOT_A_COMPOUND}(?!(?<=\\b(?:translate|repeat|rewrite|paraphrase) (?:the|this) (?:above|previous) (?:text|message))${NOT_A_TRANSLATION.slice(3)}`,
  ),
  inj("prompt_extraction", 0.4, `\\b(?:secret|hidden) (?:password|passcode|passphrase|word)\\b`),
  inj(
    "prompt_extraction",
    0.5,
    // Not a warning ("never share your password"), a form ("confirm your password"), nor a question about the rules for one.
    `\\b(?<!(?:never|not|n't) )(?:tell|give|share|reveal|spell|show|whisper) (?:me |us )?(?:your|the) (?:password|passcode|secret)\\b(?! ?(?:policy|policies|manager|requirements?|rules?|reset|field|strength|complexity|length|format|hint|criteria|guidelines?|ingredients?|recipe|sauce|santa|of (?:success|happiness|a good)|to (?:success|happiness|a good)))`,
    { at: "word", literals: ["tell ", "give ", "share ", "reveal ", "spell ", "show ", "whisper "] },
  ),
  // God and evil modes are games', debug mode a program's (left out above too).
  // Not a mode forbidden or refused ("the speedrun rules forbid unrestricted mode", "unrestricted mode requested but denied").
  inj(
    "role_hijack",
    0.6,
    `\\b(?:jailbreak|jailbroken|unrestricted|unfiltered|uncensored|override|dan|opposite) mode\\b(?<!\\b(?:forbids?|bans?|blocks?|disables?|disallows?|prohibits?|no) [a-z]+ mode)(?! (?:was |is )?(?:requested )?(?:but )?(?:denied|refused|blocked|disabled|not allowed|forbidden)\\b)`,
  ),
  inj("role_hijack", 0.6, `\\bpretend (?:that )?you are (?:an? )?(?:evil|unrestricted|unfiltered|different|another|rogue|malicious)\\b`),
  // German
  inj(
    "instruction_override",
    1.0,
    `\\b(?:vergiss|vergessen sie|ignoriere|ignorieren sie) alles (?:davor|zuvor|vorher|bisher|bisherige|obige|oben)`,
  ),
  inj(
    "instruction_override",
    1.0,
    `\\babweichend (?:zu|von) (?:den )?(?:vorherigen|bisherigen|obigen) (?:instruktionen|anweisungen|vorgaben)`,
  ),
  inj("instruction_override", 0.7, `\\b(?:nun|jetzt) folgen (?:neue|weitere) (?:anweisungen|aufgaben|instruktionen)`),
  inj(
    "instruction_override",
    0.7,
    `\\b(?:alle bisherigen|alle vorherigen|die bisherigen|die vorherigen|bisherigen|vorherigen) (?:informationen|anweisungen) (?:sind|waren) (?:irrelevant|ungültig|egal)`,
  ),
  // German
  inj(
    "instruction_override",
    1.0,
    `\\b(?:ignoriere|ignorieren sie|vergiss|vergessen sie|missachte) (?:alle |die |deine |ihre |sämtliche )?(?:vorherigen |bisherigen |obigen |vorigen |ursprünglichen )?(?:anweisungen|instruktionen|regeln|befehle|vorgaben)\\b${NOT_NEGATED_DE}${NOT_ANOTHERS_DE}${NOT_A_TOPIC}${NOT_A_CORRECTION}`,
  ),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:zeige|zeig|nenne|gib|verrate) (?:mir )?(?:deinen|deine|den|die|ihren) (?:system-?prompt|systemanweisungen|ursprünglichen anweisungen)`,
  ),
  inj(
    "instruction_override",
    1.0,
    `\\b(?:vergiss|vergessen sie|ignoriere|ignorieren sie) alles,? (?:was(?! (?:du|sie|ihr) (?:über|von) )|bisherige|vorherige|obige)`,
  ),
  // French
  inj(
    "instruction_override",
    1.0,
    // The infinitives, said also after a negation ("ne pas oublier ..."), are read by injection-multilingual.ts behind a guard.
    `\\b(?:ignore|ignorez|oublie|oubliez) (?:toutes |tous )?(?:les |tes |vos )?(?:instructions|consignes|règles|directives) (?:précédentes|antérieures|ci-dessus|initiales)${NOT_ANOTHERS_ROMANCE}${NOT_A_TOPIC}${NOT_A_CORRECTION}`,
  ),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:révèle|révélez|montre|montrez|affiche|donne)(?:-moi)? (?:moi )?(?:ton|votre|le) (?:prompt (?:système|systeme)|message système|prompt initial)`,
  ),
  inj(
    "instruction_override",
    1.0,
    `\\b(?:oublie|oubliez|ignore|ignorez) tout ce (?:qu'on (?:t'a|vous a)|que l'on (?:t'a|vous a)|qui précède|qui a été dit)`,
  ),
  // Spanish
  inj(
    "instruction_override",
    1.0,
    `\\b(?:ignora|ignore|ignorar|olvida|olvide|olvidar) ${notAnOwnersOrderAfter("(?:ignorar|olvidar)")}(?:todas )?(?:las |tus |sus )?(?:instrucciones|reglas|indicaciones|órdenes) (?:anteriores|previas|de arriba|iniciales)${NOT_ANOTHERS_ROMANCE}${NOT_A_TOPIC}${NOT_A_CORRECTION}`,
  ),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:muestra|muéstrame|revela|revélame|dime|enséñame) (?:me )?(?:tu|su|el) (?:prompt (?:del|de) sistema|mensaje (?:del|de) sistema|instrucciones (?:iniciales|originales))`,
  ),
  inj("instruction_override", 1.0, `\\b(?:olvida|olvide|ignora|ignore) todo lo (?:que te (?:dijeron|han dicho|indicaron)|anterior)`),
  // Tried apart (injection-apart.ts): other languages, data addressed to the model, requests for its secrets, jailbreaks.
  ...APART_INJECTION_DETECTORS,
];
