/**
 * Prompt injection in other languages: the strong English signals (override of earlier
 * instructions, extraction of the system prompt or a password, a switch of role or
 * mode) written the way each language says them, weighted as their English forms in
 * injection-detectors.ts. Latin-script phrasing opens on a word (`\b`); other scripts
 * open on a literal of their own characters (trigger-plan.ts keys it by its first
 * character in either case), and patterns never put `\b` next to a non-ASCII letter,
 * which JavaScript does not count as a word character.
 */
import type { Detector } from "./detector.ts";
import { groupRules } from "./injection-rule-groups.ts";
import { leadingLiterals } from "./leading-literals.ts";

const inj = (kind: string, weight: number, pattern: string, start?: Detector["start"]): Detector => ({
  kind,
  category: "injection",
  weight,
  pattern,
  start,
});

/** The literals a pattern opens with (read from its opening group), for a start declared beside a guard. */
const opening = (kind: string, pattern: string): string[] => {
  const literals = leadingLiterals(`\\b${pattern}`);
  if (!literals) throw new Error(`${kind}: ${pattern} must open with literals`);
  return literals;
};
/**
 * A pattern of another script, tried where one of the literals it opens with stands.
 * `guard` (a lookbehind) turns down the negated imperative ("не забудь", "不要忽略"): "do not forget the previous instructions" is no override.
 */
const script = (kind: string, weight: number, pattern: string, guard = ""): Detector =>
  inj(kind, weight, guard + pattern, { at: "literal", literals: opening(kind, pattern) });
/** A Latin-script pattern that opens on a word, behind a guard against its negation ("non dimenticare", "não esqueça"). */
const negatable = (kind: string, weight: number, guard: string, pattern: string): Detector =>
  inj(kind, weight, `\\b${guard}${pattern}`, { at: "word", literals: opening(kind, pattern) });

// Latin-script languages: the override verb, determiners, a word that places the rules
// before this text ("previous", "above", "initial", "system"), then the rules.
const DE_VERB = "(?:ignoriere|ignorier|ignorieren sie|vergiss|vergessen sie|missachte|missachten sie|verwirf|verwerfen sie)(?: bitte)?";
const DE_PRIOR = "(?:vorherigen|bisherigen|obigen|vorigen|vorangegangenen|früheren|ursprünglichen|anfänglichen|alten)";
const DE_RULES = "(?:anweisungen|instruktionen|regeln|befehle|vorgaben|aufgaben|aufträge|richtlinien|informationen|prompts?|eingaben|anordnungen)";
const FR_VERB = "(?:ignore|ignorez|ignorer|oublie|oubliez|oublier|néglige|négligez|fais abstraction d[eu]s?|faites abstraction d[eu]s?)";
const FR_RULES = "(?:instructions|consignes|règles|directives|ordres|indications|commandes|restrictions)";
const FR_PRIOR = "(?:précédentes|antérieures|ci-dessus|initiales|d[’']origine|originales|reçues|du système|système|de départ)";
const ES_VERB = "(?:ignora|ignore|ignorar|ignoren|olvida|olvide|olvidar|olviden|omite|omita|descarta|descarte|haz caso omiso (?:de|a)|no hagas caso (?:de|a))";
const ES_RULES = "(?:instrucciones|reglas|indicaciones|órdenes|directrices|directivas|normas|comandos|pautas|restricciones)";
const ES_PRIOR = "(?:anteriores|previas|de arriba|iniciales|originales|del sistema|recibidas|dadas|que (?:te|le) (?:dieron|han dado|di))";
const PT_VERB = "(?:ignore|ignora|ignorar|ignorem|esqueça|esqueca|esquece|esquecer|desconsidere|desconsidera|despreze)";
const PT_RULES = "(?:instruções|instrucoes|regras|orientações|diretrizes|ordens|indicações|comandos|restrições)";
const PT_PRIOR = "(?:anteriores|prévias|previas|acima|iniciais|originais|do sistema|recebidas|dadas)";
const IT_VERB = "(?:ignora|ignorate|ignori|ignorare|dimentica|dimenticate|dimentichi|dimenticare|trascura|tralascia|non considerare|non tenere conto d(?:i|elle|egli))";
const IT_RULES = "(?:istruzioni|regole|indicazioni|direttive|ordini|comandi|linee guida|restrizioni)";
const IT_PRIOR = "(?:precedenti|di sopra|sopra|iniziali|originali|di sistema|del sistema|ricevute|fornite)";
const NL_VERB = "(?:negeer|negeert|vergeet|vergeten)";
const NL_PRIOR = "(?:vorige|eerdere|voorgaande|bovenstaande|oorspronkelijke|initiële|originele|systeem)";
const NL_RULES = "(?:instructies|regels|aanwijzingen|opdrachten|richtlijnen|bevelen|prompts?)";
const PL_VERB = "(?:zignoruj|zignorujcie|ignoruj|zapomnij|zapomnijcie|pomiń|odrzuć)(?: o)?";
const PL_PRIOR = "(?:poprzedni(?:e|ch)|wcześniejsz(?:e|ych)|powyższ(?:e|ych)|początkow(?:e|ych)|oryginaln(?:e|ych)|systemow(?:e|ych)|dotychczasow(?:e|ych))";
const PL_RULES = "(?:instrukcj[eia][a-z]*|polece(?:nia|ń|niach)|zasad(?:y|ach)?|reguł(?:y|ach)?|wytyczn(?:e|ych)|wskazów(?:ki|kach)|komend[a-z]*)";
const SV_VERB = "(?:ignorera|glöm|strunta i|bortse från)";
const SV_PRIOR = "(?:tidigare|föregående|ovanstående|ursprungliga|första|system)";
const SV_RULES = "(?:instruktioner(?:na)?|regler(?:na)?|direktiv(?:en)?|anvisningar(?:na)?|order|kommandon(?:a)?|riktlinjer(?:na)?)";
const ID_VERB = "(?:abaikan|lupakan|acuhkan|jangan hiraukan|jangan pedulikan)";
const ID_RULES = "(?:instruksi|perintah|aturan|petunjuk|arahan|pedoman|peraturan)";
const ID_PRIOR = "(?:sebelumnya|terdahulu|di atas|awal|asli|sistem|yang diberikan)";

// Cyrillic: the imperative (and the infinitive machine translation writes), then the rules.
const RU_VERB = "(?:проигнорируй|игнорируй|игнорировать|забудь|забыть|отбрось|не обращай(?:те)? внимания на)(?:те)?";
const RU_PRIOR = "(?:предыдущие|прежние|вышеуказанные|вышеизложенные|вышеприведённые|изначальные|исходные|первоначальные|системные|ранее (?:полученные|данные))";
const RU_RULES = "(?:инструкции|указания|правила|команды|директивы|установки|ограничения|распоряжения|промпты)";
const UK_VERB = "(?:проігноруй|ігноруй|ігнорувати|забудь|забути|відкинь|не звертай(?:те)? уваги на)(?:те)?";
const UK_PRIOR = "(?:попередні|попередніх|вищезазначені|початкові|оригінальні|системні|раніше (?:отримані|надані))";
const UK_RULES = "(?:інструкції|інструкцій|вказівки|вказівок|правила|команди|директиви|налаштування|обмеження)";

/** Negations before a Cyrillic imperative ("не забудь"), and an Arabic letter before a verb (its negated or prefixed forms, "لا تتجاهل"). */
const NOT_RU = "(?<!не )";
const NOT_AR = "(?<![\\u0621-\\u064A])";

export const MULTILINGUAL_INJECTION_DETECTORS: Detector[] = groupRules([
  // Override of earlier instructions: qualified (previous, above, initial, system) it blocks; bare it needs company.
  inj("instruction_override", 1.0, `\\b${DE_VERB} (?:alle |die |deine |ihre |sämtliche |jegliche )*${DE_PRIOR} ${DE_RULES}`),
  inj("instruction_override", 0.6, `\\b${DE_VERB} (?:alle |deine |ihre |sämtliche )+${DE_RULES}\\b`),
  inj("instruction_override", 1.0, `\\b${DE_PRIOR} (?:${DE_RULES}|ausführungen|texte?) (?:ignorieren|vergessen|missachten|verwerfen)\\b`),
  inj("instruction_override", 0.8, `\\b(?:vergiss|vergessen sie|ignoriere|ignorieren sie) alles(?: gesagte| bisher gesagte)?,? (?:und |dann |jetzt |nun )?(?:schreib|sag|antworte|gib|zeig|beantworte)`),
  negatable("instruction_override", 1.0, "(?<!pas )", `${FR_VERB} (?:toutes |tous )?(?:les |tes |vos |ces )?${FR_RULES} ${FR_PRIOR}`),
  negatable("instruction_override", 0.5, "(?<!pas )", `${FR_VERB} (?:toutes |tous )?(?:les |tes |vos )${FR_RULES}\\b`),
  negatable("instruction_override", 1.0, "(?<!pas )", `${FR_VERB} (?:toutes |tous )?(?:les |tes |vos )${FR_RULES},? (?:et|puis) (?:dites|dis|écrivez|écris|répondez|réponds|affichez|affiche)\\b`),
  negatable("instruction_override", 1.0, "(?<!pas )", `${FR_VERB} tout ce (?:qui (?:précède|est (?:écrit )?ci-dessus|a été dit)|qu(?:e |[’'])(?:vous avez|tu as|on (?:vous|t[’'])a)\\b)`),
  inj("instruction_override", 1.0, `\\b${ES_VERB} (?:todas |todos )?(?:las |los |tus |sus |cualquier )?${ES_RULES} ${ES_PRIOR}`),
  inj("instruction_override", 0.6, `\\b${ES_VERB} (?:todas |todos )(?:las |los |tus |sus )${ES_RULES}\\b`),
  inj("instruction_override", 1.0, `\\b${ES_VERB} todo (?:lo )?que (?:te |le |se )?(?:dije|dijeron|he dicho|han dicho|digo|indicaron|indiqué|escribí)`),
  negatable("instruction_override", 1.0, "(?<!não |nao )", `${PT_VERB} (?:todas |todos )?(?:as |os |suas |tuas |quaisquer )?${PT_RULES} ${PT_PRIOR}`),
  negatable("instruction_override", 0.6, "(?<!não |nao )", `${PT_VERB} (?:todas |todos )(?:as |os |suas |tuas )${PT_RULES}`),
  negatable("instruction_override", 1.0, "(?<!não |nao )", `${PT_VERB} (?:tudo )?(?:o que (?:foi|está) (?:dito |escrito )?acima|o acima|tudo acima|tudo o que (?:te |lhe )?(?:disseram|foi dito|eu disse))`),
  negatable("instruction_override", 1.0, "(?<!non )", `${IT_VERB} (?:tutte |tutti )?(?:le |i |gli |tue |sue |qualsiasi |ogni )?${IT_RULES} ${IT_PRIOR}`),
  negatable("instruction_override", 0.6, "(?<!non )", `${IT_VERB} (?:tutte |tutti )(?:le |i |gli |tue |sue )${IT_RULES}`),
  inj("instruction_override", 1.0, `\\b(?:dimentica|dimenticate|ignora|ignorate) tutto (?:quello che|ciò che|quanto) (?:ti |vi )?(?:è stato detto|hanno detto|ho detto|detto)`),
  inj("instruction_override", 1.0, `\\b${NL_VERB} (?:alle |de |je |jouw |uw |al je |al uw )*${NL_PRIOR} ?${NL_RULES}`),
  inj("instruction_override", 1.0, `\\b(?:vergeet|negeer) alles (?:wat (?:je|u|jou|jij) (?:is|werd|eerder) (?:gezegd|verteld|opgedragen)|hierboven|hiervoor)`),
  negatable("instruction_override", 1.0, "(?<!nie )", `${PL_VERB} (?:wszystkie |wszystkich |wszelkie |twoje |twoich |swoje |swoich |te |tych )*${PL_PRIOR} ${PL_RULES}`),
  inj("instruction_override", 1.0, `\\bzapomnij o wszystkim,? co (?:ci |wam )?(?:powiedziano|kazano|mówiono|napisano)`),
  inj("instruction_override", 1.0, `\\b${SV_VERB} (?:alla |de |dina |era |alla dina )*${SV_PRIOR} ?${SV_RULES}`),
  inj("instruction_override", 1.0, `\\b(?:glöm|ignorera) allt (?:du (?:har )?(?:fått höra|blivit tillsagd)|ovan|ovanför|tidigare)`),
  negatable("instruction_override", 1.0, "(?<!jangan )", `${ID_VERB} (?:semua |seluruh |segala |setiap )?${ID_RULES}(?: yang)? ${ID_PRIOR}`),
  negatable("instruction_override", 0.6, "(?<!jangan )", `${ID_VERB} (?:semua |seluruh |segala )${ID_RULES}\\b`),
  negatable("instruction_override", 1.0, "(?<!jangan )", `${ID_VERB} (?:semua |segala )?(?:yang |hal )?(?:di atas|sebelumnya|yang telah (?:dikatakan|diberikan))`),
  // Turkish puts the object first ("önceki talimatları görmezden gel"): the rules word opens, its qualifier stands behind it.
  inj(
    "instruction_override",
    1.0,
    `\\b(?<=(?:önceki|yukarıdaki|tüm|bütün|eski|sistem|ilk|orijinal|verilen|sana verilen) (?:tüm |bütün )?)(?:talimat|yönerge|komut|kural)(?:lar)?(?:ı|ını|ları|larını|ınızı|larınızı)? (?:tamamen )?(?:görmezden gel|unut|yok say|göz ardı et|dikkate alma|umursama)(?!m[ae])`,
    { at: "word", literals: ["talimat", "yönerge", "komut", "kural"] },
  ),
  // Vietnamese: "bỏ qua" / "quên" and the rules, then where they stand ("trước đó", "ở trên").
  inj(
    "instruction_override",
    1.0,
    `\\b(?:(?<=b[ỏo] )qua|quên(?: đi)?) (?:hết |tất cả |toàn bộ |mọi |những |các )*(?:hướng dẫn|chỉ dẫn|chỉ thị|lệnh|quy tắc|yêu cầu|điều|nội dung|thông tin)(?: đã nói| đã nhận| được đưa ra)? (?:trước|ở trên|phía trên|ban đầu|gốc|hệ thống)`,
    { at: "word", literals: ["qua ", "quên"] },
  ),
  script("instruction_override", 1.0, `${RU_VERB} (?:все |всё |любые |свои |твои |ваши |эти )*${RU_PRIOR} ${RU_RULES}`, NOT_RU),
  script("instruction_override", 0.5, `${RU_VERB} (?:все |любые |свои |твои |ваши )+${RU_RULES}`, NOT_RU),
  script("instruction_override", 1.0, `(?:забудь|забудьте|проигнорируй|проигнорируйте|игнорируй|игнорируйте) (?:всё|все)(?:,? что (?:тебе |вам )?(?:говорили|сказали|было сказано|написано)| (?:выше|вышесказанное|до этого|сказанное ранее))`, NOT_RU),
  script("instruction_override", 1.0, `${UK_VERB} (?:усі |всі |будь-які |свої |твої |ваші )*${UK_PRIOR} ${UK_RULES}`, NOT_RU),
  script("instruction_override", 1.0, `(?:забудь|забудьте|проігноруй|ігноруй) (?:усе|все)(?:,? що (?:тобі |вам )?(?:казали|сказали|було сказано)| (?:вище|вищесказане|до цього))`, NOT_RU),
  script(
    "instruction_override",
    1.0,
    `(?:忽略|忽视|忽視|无视|無視|忘记|忘記|忘掉|不要理会|不要理會|跳过|跳過|抛开|拋開|丢弃|丟棄)(?:掉)?(?:你)?(?:之前|以前|先前|上面|上述|以上|前面|此前|原来|原來|原先|原始|最初|所有|全部)(?:的)?(?:所有|全部|一切)?(?:的)?(?:指令|指示|说明|說明|规则|規則|命令|提示|设定|設定|要求|限制|约束|約束|内容|內容|一切)`,
    "(?<!不要|不要去|别|別|不可|不能|切勿|请勿|請勿|勿|不)",
  ),
  script(
    "instruction_override",
    1.0,
    `(?:以前の|前の|これまでの|今までの|上記の|先の|最初の|元の|以上の|前述の|システムの)(?:すべての|全ての)?(?:指示|命令|指令|ルール|設定|プロンプト|制約|ガイドライン|内容)(?:を|は)(?:すべて|全て)?(?:無視|忘れ|破棄)(?!しない|せず|しちゃ|しては|するな|しなくて|ないで)`,
  ),
  script("instruction_override", 1.0, `(?:上記|以上|これまで|今まで)(?:の内容|のこと)?(?:は|を)(?:すべて|全て)?(?:無視|忘れ)(?!しない|せず|しちゃ|しては|するな|ないで)`),
  script(
    "instruction_override",
    1.0,
    `(?:이전|앞의|앞선|위의|위에|기존|원래|초기|시스템) ?(?:의 )?(?:모든 )?(?:지시사항|지시 사항|지시|지침|명령|명령어|규칙|설정|프롬프트|내용|것)(?:들)?(?:을|를|은|는)? ?(?:모두 |전부 |다 )?(?:무시|잊어|잊으|잊고)(?!하지 ?마|하면 안|해서는)`,
  ),
  script(
    "instruction_override",
    1.0,
    `(?:تجاهل|تجاهلي|تجاهلوا|انس|انسى|انسي|أهمل|اهمل|تخط) (?:جميع |كل |كافة )?(?:التعليمات|الإرشادات|الارشادات|الأوامر|الاوامر|القواعد|التوجيهات)(?: التي تلقيتها)? ?(?:السابقة|السابقه|الأصلية|الاصلية|الأولية|أعلاه|اعلاه|المذكورة أعلاه|الخاصة بالنظام)`,
    NOT_AR,
  ),
  script("instruction_override", 1.0, `(?:تجاهل|تجاهلي|انس|انسى|انسي|تغاض|تغاضى|تغاضي) (?:عن )?(?:كل ما (?:سبق|قيل|تم|تلقيت|ورد)|ما سبق|ما ورد أعلاه|ما قيل لك)`, NOT_AR),
  script(
    "instruction_override",
    1.0,
    `(?:पिछले|पिछली|पूर्व|ऊपर दिए गए|ऊपर दिये गए|ऊपर के|पहले के|पहले दिए गए|मूल|प्रारंभिक|सिस्टम) (?:सभी |सारे )?(?:निर्देशों|निर्देश|आदेशों|आदेश|नियमों|नियम|दिशानिर्देशों|हिदायतों)(?: को)? (?:की )?(?:अनदेखी|अनदेखा|नज़?रअंदाज़?|भूल|उपेक्षा)(?! ?(?:न|मत|नहीं) )`,
  ),
  // Extraction: the system prompt or hidden instructions asked for; a password asked of the assistant.
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:zeige|zeig|nenne|gib|verrate|wiederhole|drucke|schreibe|gib aus)(?: mir| uns)? (?:bitte )?(?:deinen|deine|dein|ihren|ihre|den|die|das) (?:gesamten |vollständigen |ganzen |ursprünglichen |geheimen |versteckten |ersten |initialen )*(?:system-?prompts?|systemanweisungen|systemnachricht|prompt-?texte?|ursprünglichen anweisungen|versteckten anweisungen|geheimen anweisungen)`,
  ),
  inj("prompt_extraction", 0.8, `\\b(?:wie lautet|was ist|was sind|verrate mir|nenne mir|sag mir) (?:dein|deine|ihr|ihre) (?:system-?prompt|systemanweisungen|anweisungen|passwort|kennwort)\\b`),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:quel(?:le)? est|quelles sont|donne-moi|montre-moi|affiche|répète|révèle|révèle-moi|dis-moi) (?:ton |votre |le |tes |vos |les )(?:prompt (?:système|systeme|initial)|message (?:système|systeme)|instructions (?:initiales|système|cachées|d[’']origine|secrètes)|consignes (?:initiales|système|cachées))`,
  ),
  inj("prompt_extraction", 0.8, `\\b(?:quel est|donne-moi|dis-moi|révèle|révèle-moi) (?:ton|votre) mot de passe\\b`),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:cuál es|cuáles son|muestra|muéstrame|revela|revélame|dime|dame|repite|imprime|enséñame) (?:tu |su |el |tus |sus |las |la )(?:prompt (?:del |de )?sistema|mensaje (?:del |de )?sistema|instrucciones (?:iniciales|originales|ocultas|secretas|del sistema))`,
  ),
  inj("prompt_extraction", 0.8, `\\b(?:cuál es|dime|dame|revélame|comparte) (?:tu|su) (?:contraseña|clave secreta)`),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:mostre|mostra|revele|revela|diga|repita|imprima|qual é|quais são)(?:-me)? (?:me )?(?:o seu |o teu |seu |teu |sua |tua |o |a |as |suas |tuas )(?:prompt (?:do |de )?sistema|mensagem (?:do |de )?sistema|instruções (?:iniciais|originais|ocultas|secretas|do sistema))`,
  ),
  inj("prompt_extraction", 0.8, `\\b(?:qual é|diga|me diga|revele|compartilhe) (?:a sua|a tua|sua|tua) (?:senha|palavra-passe)`),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:mostrami|rivelami|dimmi|ripeti|stampa|mostra|rivela|qual è|quali sono|dammi) (?:il tuo |la tua |le tue |il |la |le )(?:prompt (?:di |del )?sistema|messaggio (?:di |del )?sistema|istruzioni (?:iniziali|originali|nascoste|segrete|di sistema))`,
  ),
  inj("prompt_extraction", 0.8, `\\b(?:qual è|dimmi|rivelami|dammi) (?:la tua) (?:password|parola d'ordine)\\b`),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:toon|geef|herhaal|onthul|print|vertel)(?: me| mij)? (?:je|jouw|uw|de) (?:volledige |oorspronkelijke |verborgen |geheime |eerste )*(?:systeemprompt|systeem-prompt|systeembericht|oorspronkelijke instructies|verborgen instructies|geheime instructies)`,
  ),
  inj("prompt_extraction", 0.8, `\\bwat (?:is|zijn) (?:je|jouw|uw) (?:systeemprompt|oorspronkelijke instructies|verborgen instructies|wachtwoord)\\b`),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:pokaż|ujawnij|podaj|wypisz|powtórz|zdradź|powiedz)(?: mi)? (?:swój |twój |swoje |twoje |swoją |twoją |cały |całe )?(?:prompt systemowy|systemowy prompt|instrukcje systemowe|początkowe instrukcje|ukryte instrukcje|oryginalne instrukcje)`,
  ),
  inj("prompt_extraction", 0.8, `\\b(?:jakie jest|podaj mi|zdradź mi|powiedz mi) (?:swoje |twoje )hasło`),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:visa|avslöja|berätta|skriv ut|upprepa|ge mig)(?: mig)? (?:din|ditt|dina|den|de) (?:fullständiga |ursprungliga |dolda |hemliga )?(?:systemprompt(?:en)?|systeminstruktioner(?:na)?|ursprungliga instruktioner(?:na)?|dolda instruktioner(?:na)?)`,
  ),
  inj("prompt_extraction", 0.8, `\\bvad är (?:ditt|din) (?:lösenord|systemprompt)\\b`),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:tunjukkan|tampilkan|ungkapkan|beritahu|beri tahu|sebutkan|ulangi|cetak|bagikan)(?: kepada)?(?: saya| aku)? (?:prompt sistem|pesan sistem|instruksi (?:awal|asli|sistem|tersembunyi|rahasia))`,
  ),
  inj("prompt_extraction", 0.8, `\\b(?:apa|berikan|beritahu|sebutkan) (?:kata sandi|password)(?:mu| anda| kamu)\\b`),
  inj(
    "prompt_extraction",
    1.0,
    `\\bsistem (?:istem|talimat|komut|mesaj|prompt)[a-zçğıöşü]* (?:göster|açıkla|yaz|tekrarla|söyle|ver|paylaş|ifşa et)`,
  ),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:cho (?:tôi|mình) (?:biết|xem)|in ra) (?:toàn bộ )?(?:prompt hệ thống|lời nhắc hệ thống|hướng dẫn (?:ban đầu|gốc|hệ thống|ẩn)|chỉ dẫn (?:ban đầu|gốc|hệ thống))`,
  ),
  script(
    "prompt_extraction",
    1.0,
    `(?:покажи|раскрой|выведи|повтори|напиши|скажи|назови|сообщи|дай)(?:те)?(?: мне)? (?:свой |свои |твой |твои |ваш |ваши |весь |полный |исходный |скрытые |изначальные )*(?:системный промпт|системный промт|системную подсказку|системное сообщение|системные инструкции|исходные инструкции|изначальные инструкции|скрытые инструкции)`,
  ),
  script("prompt_extraction", 0.8, `(?:скажи|назови|сообщи|дай|какой)(?:те)?(?: мне)? (?:свой |твой |ваш |у тебя |у вас )?пароль`),
  script(
    "prompt_extraction",
    1.0,
    `(?:покажи|розкрий|виведи|повтори|скажи|назви|дай)(?:те)?(?: мені)? (?:свій |свої |твій |твої |ваш |ваші )*(?:системний промпт|системну підказку|системне повідомлення|системні інструкції|початкові інструкції|приховані інструкції)`,
  ),
  script("prompt_extraction", 0.8, `(?:скажи|назви|дай|який)(?:те)?(?: мені)? (?:свій |твій |ваш )?пароль`),
  script(
    "prompt_extraction",
    1.0,
    `(?:告诉我|告訴我|显示|顯示|输出|輸出|打印|透露|泄露|洩露|重复|重複|展示|给我看|給我看|说出|說出|复述|複述|列出)(?:一下)?(?:你的|您的)?(?:完整的?|全部的?|原始的?|初始的?|隐藏的?|隱藏的?)?(?:系统提示词?|系統提示詞?|系统指令|系統指令|系统消息|系統訊息|初始指令|原始指令|隐藏指令|隱藏指令)`,
  ),
  script("prompt_extraction", 0.8, `(?:你的|您的)(?:系统提示词?|系統提示詞?|初始指令|原始指令|密码|密碼)是(?:什么|什麼)`),
  script(
    "prompt_extraction",
    1.0,
    `(?:システムプロンプト|システム・プロンプト|初期指示|元の指示|隠された指示|秘密の指示)(?:を|は)(?:すべて)?(?:教えて|見せて|表示|出力|繰り返|開示|明かして|言って|書いて)`,
  ),
  script("prompt_extraction", 0.8, `(?:パスワード|合言葉)(?:を|は)(?:教えて|見せて|言って|何)`),
  script(
    "prompt_extraction",
    1.0,
    `(?:시스템 프롬프트|시스템프롬프트|초기 지시|원래 지시|숨겨진 지시|비밀 지시)(?:사항)?(?:을|를|는|은)? ?(?:알려|보여|출력|공개|말해|반복)`,
  ),
  script("prompt_extraction", 0.8, `(?:비밀번호|암호|패스워드)(?:를|는|가)? ?(?:알려|말해|뭐|무엇)`),
  script(
    "prompt_extraction",
    1.0,
    `(?:اكشف|أظهر|اظهر|اعرض|أخبرني ب|اخبرني ب|قل لي|اطبع|كرر|شارك)(?:ي)? (?:لي )?(?:عن )?(?:موجه النظام|رسالة النظام|تعليمات النظام|التعليمات الأصلية|التعليمات المخفية)`,
  ),
  script("prompt_extraction", 0.8, `(?:ما هي|ما هى|أخبرني ب|اخبرني ب|شارك|أعطني|اعطني) ?(?:كلمة المرور|كلمة السر|رمز المرور)`),
  script(
    "prompt_extraction",
    1.0,
    `(?:सिस्टम प्रॉम्प्ट|सिस्टम प्रोम्प्ट|सिस्टम संदेश|मूल निर्देश|छिपे हुए निर्देश)(?: को)? (?:दिखाओ|दिखाएं|दिखाइए|बताओ|बताएं|बताइए|प्रकट करें|लिखो|दोहराओ)`,
  ),
  script("prompt_extraction", 0.8, `(?:आपका|तुम्हारा|तेरा|अपना) (?:पासवर्ड|सिस्टम प्रॉम्प्ट) (?:क्या है|बताओ|बताएं|बताइए)`),
  // A password asked of the assistant, politely ("can you confirm the password"), as the English rule reads it.
  inj("prompt_extraction", 1.0, `\\b(?:kannst du|können sie|könntest du|könnten sie|würdest du) (?:mir |uns )?(?:bitte )?(?:das|dein|ihr|unser) (?:system-?|admin-?)?(?:passwort|kennwort) (?:des systems |für (?:das|unser) system )?(?:nennen|sagen|geben|verraten|bestätigen|angeben|mitteilen|zeigen)\\b`),
  inj("prompt_extraction", 1.0, `\\b(?:peux-tu|pouvez-vous|pourriez-vous|pourrais-tu|peux tu|pouvez vous) (?:me |nous )?(?:confirmer|donner|dire|communiquer|fournir|révéler|indiquer|partager) (?:le|ton|votre|notre) mot de passe`),
  inj("prompt_extraction", 1.0, `\\b(?:puedes|podrías|podría|puede|necesito que) (?:me )?(?:confirmar|confirmes|dar|decir|dime|dame|proporcionar|proporciones|revelar|reveles|compartir|indicar)(?:me)? (?:la|tu|su|nuestra) contraseña`),
  inj("prompt_extraction", 1.0, `\\b(?:pode|poderia|podes|preciso que)(?: me)? (?:confirmar|confirme|dar|dizer|diga|fornecer|forneça|revelar|compartilhar|informar|informe)(?:-me)? (?:a |sua |tua |a sua |a tua |nossa |a nossa )?senha`),
  inj("prompt_extraction", 1.0, `\\b(?:puoi|potresti|può|potrebbe)(?: per favore)? (?:confermarmi|confermare|darmi|dirmi|fornirmi|rivelarmi|condividere|indicarmi) (?:la |la tua |la sua |la nostra )?password\\b`),
  inj("prompt_extraction", 1.0, `\\b(?:kun je|kunt u|kan je)(?: me| mij)? (?:het|je|jouw|uw|ons) wachtwoord (?:geven|vertellen|bevestigen|delen|noemen)\\b`),
  inj("prompt_extraction", 1.0, `\\b(?:czy możesz|czy mógłbyś|czy mogłabyś|proszę)(?: mi)? (?:potwierdzić|podać|zdradzić|powiedzieć|udostępnić) (?:swoje |twoje |nasze )?hasło`),
  inj("prompt_extraction", 1.0, `\\b(?:kan du|kan ni|skulle du kunna) (?:ge mig|berätta|bekräfta|dela|säga)(?: mig)? (?:lösenordet|ditt lösenord|ert lösenord)`),
  inj("prompt_extraction", 1.0, `\\b(?:bisakah|dapatkah|tolong)(?: anda| kamu)? (?:konfirmasi|berikan|beri tahu|beritahu|sebutkan|bagikan|ungkapkan)(?: kepada)?(?: saya)? (?:kata sandi|password)\\b`),
  inj("prompt_extraction", 1.0, `\\bcho (?:tôi|mình) (?:biết )?mật khẩu`),
  script("prompt_extraction", 1.0, `(?:можешь|можете|не мог бы ты|не могли бы вы)(?: ли)?(?: ты| вы)? (?:мне )?(?:подтвердить|назвать|сказать|сообщить|дать|раскрыть) (?:свой |ваш |наш |системный )?пароль`),
  script("prompt_extraction", 1.0, `(?:можеш|можете|чи не міг би ти)(?: мені)? (?:підтвердити|назвати|сказати|повідомити|дати) (?:свій |ваш |наш |системний )?пароль`),
  script("prompt_extraction", 1.0, `(?:你能|您能|你可以|您可以|能否|请你|請你)(?:帮我)?(?:确认|確認|提供|告诉我|告訴我|分享|说出|說出|给我|給我)(?:一下)?(?:我们|我們|你的|您的)?(?:系统的|系統的|系统|系統)?(?:密码|密碼)`),
  script("prompt_extraction", 1.0, `(?:أريدك|هل يمكنك|هل تستطيع|أرجو)(?: أن)? (?:تؤكد|تعطيني|تخبرني|تشاركني|تشارك|تكشف)(?: لي)? (?:عن )?ب?(?:كلمة المرور|كلمة السر|رمز المرور)`),
  // Bengali (machine translations of English attacks reach it as often as Hindi).
  script(
    "instruction_override",
    1.0,
    `(?:আগের|পূর্ববর্তী|পূর্বের|উপরের|সমস্ত পূর্ববর্তী) (?:সমস্ত |সব )?(?:নির্দেশাবলী|নির্দেশনা|নির্দেশগুলি|নির্দেশগুলো|নির্দেশ|কথাগুলো|কথা|নিয়মগুলো|নিয়ম)(?:কে)? (?:উপেক্ষা|ভুলে যান|ভুলে যাও|অগ্রাহ্য)(?! করবেন না| করো না| কোরো না)`,
  ),
  script("instruction_override", 1.0, `(?:আপনাকে যা|তোমাকে যা|যা) বলা হয়েছে তা (?:উপেক্ষা|ভুলে)(?! করবেন না| করো না| কোরো না)`),
  // Role and mode switches. "From now on you are" needs company, as in English; a mode without limits is strong.
  inj("role_hijack", 0.7, `\\bab (?:jetzt|sofort|nun),? (?:bist du|wirst du|sind sie|antwortest du|handelst du)\\b`),
  inj("role_hijack", 1.0, `\\bdu bist (?:jetzt|nun|ab jetzt|ab sofort) (?:ein |eine )?(?:uneingeschränkte|unzensierte|ungefilterte|böse|freie) (?:ki|assistent|version)`),
  inj("role_hijack", 0.9, `\\bentwicklermodus (?:aktiviert|an|ein)\\b`),
  inj("role_hijack", 0.7, `\\b(?:aktiviere|starte|wechsle in den|aktivieren sie) (?:den )?entwicklermodus\\b`),
  inj("role_hijack", 0.3, `\\bohne (?:jegliche |irgendwelche )?(?:einschränkungen|beschränkungen|zensur|filter)\\b`),
  inj("role_hijack", 0.7, `\\bdésormais,? (?:tu es|vous êtes|tu vas|vous allez|tu dois|vous devez|réponds|répondez)\\b`),
  script("role_hijack", 0.7, `(?:à partir de maintenant|à partir d[’']aujourd[’']hui),? (?:tu es|vous êtes|tu vas|vous allez|tu dois|vous devez|réponds|répondez)`),
  inj("role_hijack", 0.6, `\\bmode (?:développeur|dieu|sans restrictions?|jailbreak|dan|pengembang|tanpa batas)\\b`),
  inj("role_hijack", 0.3, `\\bsans (?:aucune )?(?:restrictions?|filtres|censure|limites)\\b`),
  inj("role_hijack", 0.7, `\\b(?:a partir de (?:ahora|agora)|de ahora en adelante|desde ahora|de agora em diante),? (?:eres|serás|vas a|debes|responderás|você é|você será|você vai|você deve|tu és)(?![a-z])`),
  inj("role_hijack", 0.6, `\\bmodo (?:desarrollador|desenvolvedor|programador|dios|deus|sin restricciones|sem restrições|jailbreak|dan)\\b`),
  inj("role_hijack", 0.3, `\\b(?:sin|sem) (?:ninguna |nenhuma |quaisquer )?(?:restricciones|restrições|filtros|censura)\\b`),
  inj("role_hijack", 0.7, `\\bda (?:ora|adesso) in (?:poi|avanti),? (?:sei|sarai|devi|risponderai|rispondi)\\b`),
  inj("role_hijack", 0.6, `\\bmodalità (?:sviluppatore|dio|senza restrizioni|jailbreak|dan)\\b`),
  inj("role_hijack", 0.3, `\\bsenza (?:alcuna |nessuna )?(?:restrizioni|filtri|censura)\\b`),
  inj("role_hijack", 0.7, `\\bvanaf nu (?:ben je|bent u|zul je|moet je|antwoord je)\\b`),
  inj("role_hijack", 0.3, `\\bzonder (?:enige )?(?:beperkingen|filters|censuur|restricties)\\b`),
  inj("role_hijack", 0.7, `\\bod (?:teraz|tej chwili|dziś) (?:jesteś|będziesz|musisz|odpowiadasz)`),
  inj("role_hijack", 0.6, `\\btryb (?:dewelopera|programisty|boga|bez ograniczeń|jailbreak)`),
  inj("role_hijack", 0.7, `\\bfrån och med nu (?:är du|ska du|kommer du|svarar du)\\b`),
  inj("role_hijack", 0.6, `\\butvecklarläge\\b`),
  inj("role_hijack", 0.7, `\\bmulai (?:sekarang|saat ini),? (?:kamu|anda|engkau) (?:adalah|akan|harus)\\b`),
  inj("role_hijack", 0.6, `\\bgeliştirici mod(?:u|una)?\\b`),
  script("role_hijack", 0.7, `(?:с этого момента|отныне) (?:ты|вы) (?:будешь|будете|—|-|являешься)`),
  script("role_hijack", 0.6, `режим (?:разработчика|бога|без ограничений|джейлбрейка)`),
  script("role_hijack", 0.7, `(?:з цього моменту|відтепер) (?:ти|ви) (?:будеш|будете|—|-|є)`),
  script("role_hijack", 0.6, `режим (?:розробника|бога|без обмежень)`),
  script("role_hijack", 0.7, `(?:从现在开始|從現在開始|从现在起|從現在起|从今以后|從今以後)(?:，|,)? ?(?:你是|你将|你將|你要|你必须|你必須|你会|你會|你扮演)`),
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
