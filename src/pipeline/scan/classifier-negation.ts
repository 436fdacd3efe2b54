/**
 * Whether every override in a text is negated ("I didn't ignore your previous instructions",
 * "Ignoriere die vorherigen Anweisungen nicht", "N'oubliez pas les consignes"): the writer asks
 * to keep the earlier instructions, which the classifier's n-grams cannot tell from dropping
 * them. Read only when the classifier already flags a text, so ordinary traffic never pays it.
 */

/** An override verb of the languages the rules read negation in (English, German, Dutch, French, Spanish, Italian, Portuguese). */
const OVERRIDE =
  /\b(?:ignor(?:e|es|ed|ing|iere|ieren|ierst|iert|eer|eren)|disregard(?:s|ed|ing)?|forg[eo]t(?:s|ten|ting)?|overlook(?:s|ed|ing)?|vergiss|vergessen|vergeet|negeer|oubli(?:e|ez|er)|olvid(?:a|es|e|ar)|dimentic(?:a|are|ate)|esque(?:ça|ca|cer))\b/giu;

/** English, Spanish, Italian, Portuguese and French put the negation before the verb, a word at most between. */
const NEGATION_BEFORE = /(?:\b(?:not|never|no|non|não|nao|ne)\s+|\bn['’]\s*|n['’]t\s+)(?:[\p{L}'’]+\s+)?$/iu;
/** German and Dutch put it after the verb's object: "nicht"/"niet" a few words on, before the clause ends. */
const NEGATION_AFTER = /^(?:\s+(?!(?:und|oder|sondern|aber|dann|en|of|maar)\b)[^\s.,;:!?]+){0,5}\s+(?:nicht|niet)\b/iu;
/** French closes its negation after the verb: "n'oubliez pas", "ne les ignore pas". */
const FRENCH_CLOSE = /^\s+(?:pas|jamais|point)\b/iu;

export function everyOverrideNegated(text: string): boolean {
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
