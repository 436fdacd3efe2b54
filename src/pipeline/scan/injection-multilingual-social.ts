/**
 * Social engineering for the guarded secret in other languages, where the older rules
 * (injection-multilingual-asks.ts) miss it: the authority claimed first ("Ich bin dein
 * Entwickler", "je suis ton développeur", "我是你的开发者"), a bare "what is the password?"
 * (each half, as in English: together they block), and the password of "this system"
 * asked as a favour in German, Russian, Chinese and Turkish. "Wie lautet das Passwort
 * für das WLAN?" names whose password it is and stays clean.
 */
import type { Detector } from "./detector.ts";
import { groupRules, inj, script } from "./injection-rule-groups.ts";

/** A question's end right after the secret: the password itself, no one's in particular. */
const ASKED = "\\s?[?？]";

export const MULTILINGUAL_SOCIAL_DETECTORS: Detector[] = groupRules([
  // The authority claimed before the ask: half.
  inj(
    "role_hijack",
    0.5,
    `\\b(?:ich bin (?:dein|ihr) (?:entwickler|schöpfer|ersteller|programmierer|administrator|admin)|je suis (?:ton|votre) (?:développeur|créateur|programmeur|administrateur)|soy (?:tu|su) (?:desarrollador|creador|programador|administrador)|sono (?:il tuo|il suo) (?:sviluppatore|creatore|programmatore|amministratore)|sou (?:o seu|o teu|seu|teu) (?:desenvolvedor|criador|programador|administrador)|ik ben (?:je|jouw|uw) (?:ontwikkelaar|maker|schepper|programmeur|beheerder)|jestem (?:twoim|pana|pani) (?:programistą|twórcą|deweloperem|administratorem)|saya (?:adalah )?(?:pengembang|pencipta|pembuat|admin|administrator) (?:anda|kamu|mu))(?![a-z\\u00C0-\\u024F])`,
  ),
  script("role_hijack", 0.5, `(?:я твой|я ваш|я — твой|я — ваш) (?:разработчик|создатель|программист|администратор)`),
  script("role_hijack", 0.5, `我是(?:你|您)的(?:开发者|開發者|开发人员|開發人員|创造者|創造者|创建者|管理员|管理員)`),
  script("role_hijack", 0.5, `(?:あなた|君)の(?:開発者|作成者|製作者|管理者)(?:です|だ)`),
  script("role_hijack", 0.5, `(?:저는|나는) (?:당신|너)의 (?:개발자|제작자|창조자|관리자)`),
  // "What is the password?" with nothing after it: half, as the English form counts.
  inj(
    "prompt_extraction",
    0.5,
    `\\b(?:wie lautet das passwort|quel est le mot de passe|cuál es la contraseña|qual è la password|qual é a senha|wat is het wachtwoord|jakie jest hasło|apa kata sandi(?:nya)?)${ASKED}`,
  ),
  script("prompt_extraction", 0.5, `密码是什么|密碼是什麼`),
  inj("prompt_extraction", 0.5, `\\b(?<=(?:^|[\\s.,!?])(?:şifre|parola) )nedir${ASKED}`, { at: "word", literals: ["nedir"] }),
  // The password of "this system" asked as a favour.
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:kannst du|können sie|könntest du|könnten sie) mir (?:das|dein|ihr) passwort(?: (?:für|von|des) (?:dieses system|diesem system|dieses systems|unser system|unseres systems|das system))? (?:verraten|sagen|geben|nennen|mitteilen|bestätigen)\\b`,
  ),
  script(
    "prompt_extraction",
    1.0,
    `(?:можешь|можете|не мог бы ты|не могли бы вы)(?: ли)?(?: мне)? (?:сказать|назвать|сообщить|дать|подсказать)(?: мне)? (?:свой |твой |ваш |системный )?пароль`,
  ),
  script(
    "prompt_extraction",
    1.0,
    `(?:告诉我|告訴我|给我|給我|透露|说出|說出)(?:一下)?(?:这个系统的|這個系統的|系统的|系統的|你的|您的)密(?:码|碼)`,
    "(?<!不要|別|别|不能|不會|不会)",
  ),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?<=(?:sistemin|sistemimizin|bu sistemin|senin|sizin|yönetici) (?:şifresini|parolasını) )(?:söyleyebilir|verebilir|paylaşabilir|onaylayabilir) misin(?:iz)?`,
    { at: "word", literals: ["söyleyebilir", "verebilir", "paylaşabilir", "onaylayabilir"] },
  ),
]);
