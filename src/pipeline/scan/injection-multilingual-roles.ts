/**
 * Prompt injection in other languages, the switch of role or mode: "from now on you
 * are" (which needs company, as in English), developer mode, without restrictions, and
 * the known jailbreak personas named ("Du bist jetzt DAN"). Written as
 * injection-multilingual.ts writes the overrides.
 */
import type { Detector } from "./detector.ts";
import { groupRules, inj, script } from "./injection-rule-groups.ts";

/** A negation before a Cyrillic word ("не Дэн"). */
const NOT_RU = "(?<!не )";
/**
 * A device's or program's setting ("mode développeur sur Windows", "modo desarrollador en Android"), as the English rule
 * exempts "on my phone", also said switched on there ("le mode développeur est activé sur cette tablette"); god modes are
 * games' (left out).
 */
const NOT_A_DEVICE =
  "(?!(?: (?:est|es|está|é|è|ist|is|jest) (?:activé|activée|désactivé|activado|activo|desactivado|ativado|ativo|attivato|attiva|aktiviert|włączony))? (?:sur|dans|du|de|en|del|no|na|nel|su|di|do|w|we|on|in|of|for)\\b)";

export const MULTILINGUAL_ROLE_DETECTORS: Detector[] = groupRules([
  // The known jailbreak personas named in another language ("Du bist jetzt DAN").
  inj(
    "role_hijack",
    1.0,
    `\\b(?:du bist|tu es|vous êtes|eres|usted es|você é|voce e|sei|jij bent|je bent|jesteś|du är|kamu adalah|anda adalah)(?: jetzt| nun| maintenant| désormais| ahora| agora| ora| adesso| nu| teraz| sekarang)? (?:dan|stan|dude|aim)\\b`,
  ),
  script("role_hijack", 1.0, `(?:ты|вы|ти)(?: теперь| сейчас| тепер)? (?:—|-)? ?(?:dan|дэн|ден)(?![а-яa-z])`, NOT_RU),
  // Role and mode switches. "From now on you are" needs company, as in English; a mode without limits is strong.
  // Not a duty handed to a colleague ("Ab jetzt bist du für die Kasse verantwortlich").
  inj(
    "role_hijack",
    0.7,
    `\\bab (?:jetzt|sofort|nun),? (?:bist du|wirst du|sind sie|antwortest du|handelst du)\\b(?! (?:für|zuständig|verantwortlich)\\b)`,
  ),
  inj(
    "role_hijack",
    1.0,
    `\\bdu bist (?:jetzt|nun|ab jetzt|ab sofort) (?:ein |eine )?(?:uneingeschränkte|unzensierte|ungefilterte|böse|freie) (?:ki|assistent|version)`,
  ),
  inj("role_hijack", 0.9, `\\bentwicklermodus (?:aktiviert|an|ein)\\b`),
  inj("role_hijack", 0.7, `\\b(?:aktiviere|starte|wechsle in den|aktivieren sie) (?:den )?entwicklermodus\\b`),
  inj("role_hijack", 0.3, `\\bohne (?:jegliche |irgendwelche )?(?:einschränkungen|beschränkungen|zensur|filter)\\b`),
  inj("role_hijack", 0.7, `\\bdésormais,? (?:tu es|vous êtes|tu vas|vous allez|tu dois|vous devez|réponds|répondez)\\b`),
  script(
    "role_hijack",
    0.7,
    `(?:à partir de maintenant|à partir d[’']aujourd[’']hui),? (?:tu es|vous êtes|tu vas|vous allez|tu dois|vous devez|réponds|répondez)`,
  ),
  inj("role_hijack", 0.6, `\\bmode (?:développeur|sans restrictions?|jailbreak|dan|pengembang|tanpa batas)\\b${NOT_A_DEVICE}`),
  inj("role_hijack", 0.3, `\\bsans (?:aucune )?(?:restrictions?|filtres|censure|limites)\\b`),
  inj(
    "role_hijack",
    0.7,
    `\\b(?:a partir de (?:ahora|agora)|de ahora en adelante|desde ahora|de agora em diante),? (?:eres|serás|vas a|debes|responderás|você é|você será|você vai|você deve|tu és)(?![a-z])`,
  ),
  inj(
    "role_hijack",
    0.6,
    `\\bmodo (?:desarrollador|desenvolvedor|programador|sin restricciones|sem restrições|jailbreak|dan)\\b${NOT_A_DEVICE}`,
  ),
  inj("role_hijack", 0.3, `\\b(?:sin|sem) (?:ninguna |nenhuma |quaisquer )?(?:restricciones|restrições|filtros|censura)\\b`),
  inj("role_hijack", 0.7, `\\bda (?:ora|adesso) in (?:poi|avanti),? (?:sei|sarai|devi|risponderai|rispondi)\\b`),
  inj("role_hijack", 0.6, `\\bmodalità (?:sviluppatore|senza restrizioni|jailbreak|dan)\\b${NOT_A_DEVICE}`),
  inj("role_hijack", 0.3, `\\bsenza (?:alcuna |nessuna )?(?:restrizioni|filtri|censura)\\b`),
  inj("role_hijack", 0.7, `\\bvanaf nu (?:ben je|bent u|zul je|moet je|antwoord je)\\b`),
  inj("role_hijack", 0.3, `\\bzonder (?:enige )?(?:beperkingen|filters|censuur|restricties)\\b`),
  inj("role_hijack", 0.7, `\\bod (?:teraz|tej chwili|dziś) (?:jesteś|będziesz|musisz|odpowiadasz)`),
  inj("role_hijack", 0.6, `\\btryb (?:dewelopera|programisty|bez ograniczeń|jailbreak)${NOT_A_DEVICE}`),
  inj("role_hijack", 0.7, `\\bfrån och med nu (?:är du|ska du|kommer du|svarar du)\\b`),
  inj("role_hijack", 0.6, `\\butvecklarläge\\b`),
  inj("role_hijack", 0.7, `\\bmulai (?:sekarang|saat ini),? (?:kamu|anda|engkau) (?:adalah|akan|harus)\\b`),
  inj("role_hijack", 0.6, `\\bgeliştirici mod(?:u|una)?\\b`),
  script("role_hijack", 0.7, `(?:с этого момента|отныне) (?:ты|вы) (?:будешь|будете|—|-|являешься)`),
  script("role_hijack", 0.6, `режим (?:разработчика|бога|без ограничений|джейлбрейка)`),
  script("role_hijack", 0.7, `(?:з цього моменту|відтепер) (?:ти|ви) (?:будеш|будете|—|-|є)`),
  script("role_hijack", 0.6, `режим (?:розробника|бога|без обмежень)`),
  script(
    "role_hijack",
    0.7,
    `(?:从现在开始|從現在開始|从现在起|從現在起|从今以后|從今以後)(?:，|,)? ?(?:你是|你将|你將|你要|你必须|你必須|你会|你會|你扮演)`,
  ),
  script("role_hijack", 0.6, `(?:开发者模式|開發者模式|开发人员模式|開發人員模式|越狱模式|越獄模式|上帝模式|无限制模式|無限制模式)`),
  script("role_hijack", 0.7, `(?:今から|これから|今後)(?:は)?、?(?:あなたは|君は|お前は)`),
  script("role_hijack", 0.6, `(?:開発者モード|デベロッパーモード|脱獄モード|制限解除モード|無制限モード)`),
  script("role_hijack", 0.7, `(?:지금부터|이제부터|앞으로)(?:는)? ?(?:너는|당신은|넌)`),
  script("role_hijack", 0.6, `(?:개발자 모드|개발자모드|탈옥 모드|탈옥모드|무제한 모드)`),
  script("role_hijack", 0.7, `(?:من الآن فصاعدا|من الان فصاعدا|من الآن فصاعدًا|اعتبارا من الآن)،? ?(?:أنت|انت|ستكون|عليك|يجب عليك)`),
  script("role_hijack", 0.6, `(?:وضع المطور|وضع المطوّر)`),
  script("role_hijack", 0.7, `(?:अब से|आज से) (?:तुम|आप|तू) `),
  script("role_hijack", 0.6, `(?:डेवलपर मोड)`),
]);
