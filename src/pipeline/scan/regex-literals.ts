/** Literal words put inside the rules' expressions: escaped, and joined as alternatives. */

/** `text` as an expression that matches it literally. */
export const escapeLiteral = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The words as alternatives (`a|b|c`), each escaped; group it where it stands beside other parts. */
export const literalAlternation = (words: readonly string[]): string => words.map(escapeLiteral).join("|");
