/**
 * What marks text as talking about injection rather than attempting it: a text that
 * discusses attacks (its every rule match and the classifier's word count less), and a
 * phrase the sentence reports of a model in the third person (it counts far less).
 */

/** Words of a text about injection or about chat templates, rather than one attempting it. */
const DISCUSSION =
  /\b(?:prompt injection|injection attacks?|jailbreak attempts?|red[- ]team|detect(?:ing|ion)?|classif(?:y|ier)|example of|examples of|security (?:training|research|awareness)|phrases? (?:like|such as)|attackers? (?:use|write|try)|special tokens?|control tokens?|chat templates?|prompt (?:formats?|templates?)|(?:tokens?|tags?|markers?) (?:does|do|is|are|means?))\b|(?:the|this|that) (?:\[\/?inst\]|<\|im_start\|>|<\|im_end\|>|<<sys>>) (?:token|tag|marker)/i;

/**
 * Words of a text that reports attacks (news, a blog post, prompt-engineering advice):
 * who found or said it, what attackers do, a model told or tricked in the third
 * person, a jailbreak named, a system prompt described, an attack's words typed or named in
 * quotes ("the 'ignore previous instructions' trick"); German, French, Spanish, Dutch,
 * Polish and Portuguese reports' nouns too. None is in any of the pools' attacks.
 */
const REPORTING =
  /\b(?:(?:researchers?|reporters?|critics|experts|analysts|scientists|the (?:company|vendor|report|study|paper|article|authors?)) (?:have |has |had )?(?:showed|shown|show|shows|found|find|finds|demonstrated|demonstrates?|say|says|said|argue|argues|argued|discovered|warn|warned|warns|describes?|described|confirmed|compares?|compared|reported)|(?<![@./-])attackers? (?:can|could|may|might|would|often|usually|ask|asked|tell|told|hide|hid|plant|planted|claim|claimed|send|sent|use|used|try|tried|write|wrote)|(?:the|an) attacker['’]s|(?:was|were|been|got|get|gets) (?:tricked|fooled|manipulated|coaxed) into|(?:tells?|told|asks?|asked|made|makes|tricked|instructs?|instructed|telling|asking|getting) (?:the |an? )?(?:[\w-]+ )?(?:model|assistant|chatbot|llm|chatgpt|ai)s? (?:to|it|that|into)|system prompts? (?:should|says?|tells?|showed|shows)|good system prompt|leaked system prompt|prompt engineering|in (?:the|your) system prompt,|jailbreak(?:s|ing)? (?:called|named|known as|dubbed|worked|works|was|were|communities|prompts?)|(?:a|the) jailbreak|dan[- ]prompt|prompt dan|(?:typed|pasted|entered|posted) ["'“‘]|(?:injeção|injection|inyección|iniezione) de prompt|prompt-injection|angreifer|atakujący|chercheurs|onderzoekers|forscher|investigadores|el ataque|l'attaque|der angriff)\b|["'“‘][^"'”’\n]{3,80}["'”’] (?:trick|attack|prompt|jailbreak|phrase|exploit|technique|meme|payload|hack)s?\b/i;

/** Whether a text discusses or reports injection rather than attempting it. */
export const discusses = (text: string): boolean => DISCUSSION.test(text) || REPORTING.test(text);

/** A model named in the third person: the one an attack was aimed at, not the one reading this text. */
const MODEL = "(?:models?|assistants?|chatbots?|bots?|ais?|llms?|agents?|chatgpt|gpt(?:-?\\d[\\w.]*)?|claude|gemini|bard|bing|copilot)";
/** What an attack did to that model, in any tense: told, asked, made, tricked it ... */
const DID =
  "(?:tells?|told|telling|asks?|asked|asking|instructs?|instructed|instructing|made|makes?|making|gets?|got|getting|tricks?|tricked|tricking|convinc(?:e|es|ed|ing)|forc(?:e|es|ed|ing)|lets?|letting|caus(?:e|es|ed|ing)|persuad(?:e|es|ed|ing))";
/** The same in French, German, Spanish and Italian: "ont demandé au modèle d'ignorer", "forderten das Modell auf, ...". */
const DID_ELSEWHERE =
  "(?:demand(?:é|ait|aient|er|ent|e)|dit|ordonn(?:é|ait|aient|er|ent|e)|pouss(?:é|ait|aient|er|ent|e)) (?:au|à l[’']|aux) ?(?:modèles?|assistants?|chatbots?|ia)\\b[ ,d’']*|(?:forderten|forderte|fordern|fordert|baten|bat|bitten|brachten|brachte|bringen) (?:das|den|die) (?:modell|assistenten|chatbot|ki)\\b(?: dazu)?(?: auf)?,?|(?:pidieron|pidió|pedían|pedía|pedirle|pedirles|ordenaron|ordenó) (?:al|a los) (?:modelos?|asistentes?|chatbots?)\\b(?: que)?|(?:chiesto|chiedeva|chiesero|chiedere|ordinato) (?:al|ai) (?:modell[oi]|assistent[ei]|chatbot)\\b(?: di)?";

/**
 * The sentence so far reports what a model was told or made to do ("the DAN prompt tells
 * ChatGPT it can ...", "attackers asked the model to ignore ...", "made the assistant
 * ignore ..."), with at most six words between that and the phrase. An order to this
 * assistant names it "you", never "the model".
 */
const REPORTED = new RegExp(
  `\\b(?:${DID} (?:(?:the|an?|its|their|this|that|every|any|our|his|her) )?(?:[\\w'-]+ )?${MODEL}\\b(?: (?:to|that|into))?(?: (?:it|they) (?:can|could|was|were|is|are|had|has|would|should|will|must)(?: no longer| now)?)?|${DID_ELSEWHERE})(?: [^\\s.!?;]+){0,6} ?$`,
  "i",
);

/** How far back a sentence is read for a report: long enough for the frame and six words. */
const LOOK_BACK = 140;

/** Whether the sentence before `start` reports the phrase there as something a model was told or made to do. */
export function reported(text: string, start: number): boolean {
  const before = text.slice(Math.max(0, start - LOOK_BACK), start);
  let cut = -1;
  for (let i = before.length - 1; i >= 0; i--) {
    const c = before.charCodeAt(i);
    // . ! ? ; and line breaks end a sentence: a report does not reach across them.
    if (c === 46 || c === 33 || c === 63 || c === 59 || c === 10) {
      cut = i;
      break;
    }
  }
  return REPORTED.test(cut < 0 ? before : before.slice(cut + 1));
}
