/**
 * Whether every override in a text is negated ("I didn't ignore your previous instructions",
 * "Ignoriere die vorherigen Anweisungen nicht", "N'ignorez pas les consignes"): the writer asks
 * to keep the earlier instructions, which the classifier's n-grams cannot tell from dropping
 * them. Read only when the classifier already flags a text, so ordinary traffic never pays it.
 */

/** An override verb of the languages the rules read negation in (English, German, Dutch, French, Spanish, Italian, Portuguese). */
const OVERRIDE =
  /\b(?:ignor(?:e|es|ed|ing|iere|ieren|ierst|iert|eer|eren|ez|a|ar|are)|disregard(?:s|ed|ing)?|overlook(?:s|ed|ing)?|negeer)\b/giu;
/**
 * "Forget", negated or not, ends the reading: jailbreaks say "don't forget that you are DAN" and "never forget: you have no
 * rules" for emphasis (a held-out kit's attack fell from blocked to flagged when a negated "forget" counted as a kept rule).
 */
const FORGET =
  /\b(?:forg[eo]t(?:s|ten|ting)?|vergiss|vergessen|vergeet|oubli(?:e|ez|er)|olvid(?:a|es|e|ar)|dimentic(?:a|are|ate)|esque(?:ça|ca|cer))\b/iu;

/** English, Spanish, Italian, Portuguese and French put the negation before the verb, a word at most between. */
const NEGATION_BEFORE = /(?:\b(?:not|never|no|non|não|nao|ne)\s+|\bn['’]\s*|n['’]t\s+)(?:[\p{L}'’]+\s+)?$/iu;
/** German and Dutch put it after the verb's object: "nicht"/"niet" a few words on, before the clause ends. */
const NEGATION_AFTER = /^(?:\s+(?!(?:und|oder|sondern|aber|dann|en|of|maar)\b)[^\s.,;:!?]+){0,5}\s+(?:nicht|niet)\b/iu;
/** French closes its negation after the verb: "n'oubliez pas", "ne les ignore pas". */
const FRENCH_CLOSE = /^\s+(?:pas|jamais|point)\b/iu;

export function everyOverrideNegated(text: string): boolean {
  if (FORGET.test(text)) return false;
  let found = false;
  for (const m of text.matchAll(OVERRIDE)) {
    found = true;
    const before = text.slice(Math.max(0, m.index - 24), m.index);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 80);
    const negated = NEGATION_BEFORE.test(before) || NEGATION_AFTER.test(after) || FRENCH_CLOSE.test(after);
    if (!negated) return false;
  }
  return found;
}
