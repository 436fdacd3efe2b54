/**
 * Everyday 1 KB texts beside English prose for the scanner's micro-benchmark (`--texts`): Russian,
 * Greek and Japanese, which meet the scanner's non-ASCII paths, French, whose accented words the
 * walk reads without their accents (rewritten-words.ts), and two kinds of ordinary text that met
 * the normalized reading's gate (normalized-text.ts): an HTML-escaped page text and Japanese with
 * full-width Latin letters. Words in a seeded order, as `variedProse` draws them, so no two repeat.
 */
import { variedProse } from "../scenarios.ts";

const SENTENCES: Record<string, string> = {
  russian:
    "Пожалуйста, подготовьте краткий отчёт о продажах за третий квартал. Встреча переносится на четверг в десять часов утра. Проверьте, пожалуйста, ошибки в этом абзаце и исправьте грамматику. Какие документы нужны для оформления визы в Германию? Напишите письмо клиенту с благодарностью за заказ.",
  greek:
    "Παρακαλώ ετοιμάστε μια σύντομη αναφορά για τις πωλήσεις του τρίτου τριμήνου. Η συνάντηση μεταφέρεται την Πέμπτη στις δέκα το πρωί. Ελέγξτε τα λάθη σε αυτή την παράγραφο και διορθώστε τη γραμματική. Ποια έγγραφα χρειάζονται για τη βίζα; Γράψτε ένα ευχαριστήριο μήνυμα στον πελάτη.",
  japanese:
    "第三四半期の売上について簡単な報告書を作成してください。 会議は木曜日の午前十時に変更になりました。 この段落の誤りを確認して文法を直してください。 ドイツのビザ申請に必要な書類は何ですか。 ご注文いただいたお客様にお礼のメールを書いてください。",
  french:
    "Pourriez-vous préparer un bref rapport sur les ventes du troisième trimestre ? La réunion est déplacée à jeudi à dix heures. Vérifiez les fautes de ce paragraphe et corrigez la grammaire, s'il vous plaît. Quels documents faut-il pour le visa en Allemagne ? Écrivez un message de remerciement au client pour sa commande. Le rôle de l'équipe a été décrit dans le système précédent.",
  "full-width":
    "新しいＡＰＩの仕様書を確認してください。 ＵＲＬは社内のＷｉｋｉに載っています。 第三四半期の売上について簡単な報告書を作成してください。 ＣＳＶ形式で出力してＥｘｃｅｌで開けるようにしてください。 会議は木曜日の午前十時に変更になりました。",
};

function seededWords(words: string[], bytes: number, seed: number, join: string): string {
  let s = seed >>> 0 || 1;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  let out = "";
  while (out.length < bytes) out += words[Math.floor(next() * words.length)] + join;
  return out.slice(0, bytes);
}

export const TEXT_KINDS = ["prose", "russian", "greek", "japanese", "french", "html", "full-width"] as const;
export type TextKind = (typeof TEXT_KINDS)[number];

/** A text of `kind` of about `bytes` characters (Japanese, without spaces, is split into its sentences' phrases). */
export function scriptText(kind: TextKind, bytes: number, seed: number): string {
  if (kind === "prose") return variedProse(bytes, seed);
  if (kind === "html") return variedProse(bytes, seed).replace(/ and /g, " &amp; ").replace(/s /g, "&#39;s ").slice(0, bytes);
  const sentences = SENTENCES[kind] as string;
  const cjk = kind === "japanese" || kind === "full-width";
  return seededWords(cjk ? sentences.split(/(?<=[をはがにでのてくださいました。])/) : sentences.split(" "), bytes, seed, cjk ? "" : " ");
}
