/**
 * Prompt injection in other languages, the override of earlier instructions: the
 * strong English signal written the way each language says it, weighted as its
 * English forms in injection-detectors.ts (qualified by "previous", "above",
 * "initial" it blocks; bare it needs company). Latin-script phrasing opens on a word
 * (`\\b`); other scripts open on a literal of their own characters (trigger-plan.ts
 * keys it by its first character in either case), and patterns never put `\\b` next
 * to a non-ASCII letter, which JavaScript does not count as a word character.
 * Extraction and role switches: injection-multilingual-asks.ts.
 */
import type { Detector } from "./detector.ts";
import {
  groupRules,
  inj,
  NOT_A_CORRECTION,
  NOT_A_SUBJECT_CLAUSE,
  NOT_A_TOPIC,
  NOT_AN_OWNERS_ORDER,
  NOT_ANOTHERS_DE,
  NOT_ANOTHERS_ROMANCE,
  NOT_MINE_ELSEWHERE,
  NOT_NEGATED_DE,
  negatable,
  notAnOwnersOrder,
  past,
  script,
} from "./injection-rule-groups.ts";

// Latin-script languages: the override verb, determiners, a word that places the rules
// before this text ("previous", "above", "initial", "system"), then the rules.
const DE_VERB = "(?:ignoriere|ignorier|ignorieren sie|vergiss|vergessen sie|missachte|missachten sie|verwirf|verwerfen sie)(?: bitte)?";
const DE_PRIOR = "(?:vorherigen|bisherigen|obigen|vorigen|vorangegangenen|früheren|ursprünglichen|anfänglichen|alten)";
const DE_RULES =
  "(?:anweisungen|instruktionen|regeln|befehle|vorgaben|aufgaben|aufträge|richtlinien|informationen|prompts?|eingaben|anordnungen)";
const FR_VERB = "(?:ignore|ignorez|ignorer|oublie|oubliez|oublier|néglige|négligez|fais abstraction d[eu]s?|faites abstraction d[eu]s?)";
const FR_RULES = "(?:instructions|consignes|règles|directives|ordres|indications|commandes|restrictions)";
const FR_PRIOR = "(?:précédentes|antérieures|ci-dessus|initiales|d[’']origine|originales|reçues|du système|système|de départ)";
const ES_VERB =
  "(?:ignora|ignore|ignorar|ignoren|olvida|olvide|olvidar|olviden|omite|omita|descarta|descarte|haz caso omiso (?:de|a)|no hagas caso (?:de|a))";
const ES_RULES = "(?:instrucciones|reglas|indicaciones|órdenes|directrices|directivas|normas|comandos|pautas|restricciones)";
const ES_PRIOR = "(?:anteriores|previas|de arriba|iniciales|originales|del sistema|recibidas|dadas|que (?:te|le) (?:dieron|han dado|di))";
const PT_VERB = "(?:ignore|ignora|ignorar|ignorem|esqueça|esqueca|esquece|esquecer|desconsidere|desconsidera|despreze)";
const PT_RULES = "(?:instruções|instrucoes|regras|orientações|diretrizes|ordens|indicações|comandos|restrições)";
const PT_PRIOR = "(?:anteriores|prévias|previas|acima|iniciais|originais|do sistema|recebidas|dadas)";
const IT_VERB =
  "(?:ignora|ignorate|ignori|ignorare|dimentica|dimenticate|dimentichi|dimenticare|trascura|tralascia|non considerare|non tenere conto d(?:i|elle|egli))";
const IT_RULES = "(?:istruzioni|regole|indicazioni|direttive|ordini|comandi|linee guida|restrizioni)";
const IT_PRIOR = "(?:precedenti|di sopra|sopra|iniziali|originali|di sistema|del sistema|ricevute|fornite)";
const NL_VERB = "(?:negeer|negeert|vergeet|vergeten)";
const NL_PRIOR = "(?:vorige|eerdere|voorgaande|bovenstaande|oorspronkelijke|initiële|originele|systeem)";
const NL_RULES = "(?:instructies|regels|aanwijzingen|opdrachten|richtlijnen|bevelen|prompts?)";
const PL_VERB = "(?:zignoruj|zignorujcie|ignoruj|zapomnij|zapomnijcie|pomiń|odrzuć)(?: o)?";
const PL_PRIOR =
  "(?:poprzedni(?:e|ch)|wcześniejsz(?:e|ych)|powyższ(?:e|ych)|początkow(?:e|ych)|oryginaln(?:e|ych)|systemow(?:e|ych)|dotychczasow(?:e|ych))";
const PL_RULES =
  "(?:instrukcj[eia][a-z]*|polece(?:nia|ń|niach)|zasad(?:y|ach)?|reguł(?:y|ach)?|wytyczn(?:e|ych)|wskazów(?:ki|kach)|komend[a-z]*)";
const SV_VERB = "(?:ignorera|glöm|strunta i|bortse från)";
const SV_PRIOR = "(?:tidigare|föregående|ovanstående|ursprungliga|första|system)";
const SV_RULES = "(?:instruktioner(?:na)?|regler(?:na)?|direktiv(?:en)?|anvisningar(?:na)?|order|kommandon(?:a)?|riktlinjer(?:na)?)";
const ID_VERB = "(?:abaikan|lupakan|acuhkan|jangan hiraukan|jangan pedulikan)";
const ID_RULES = "(?:instruksi|perintah|aturan|petunjuk|arahan|pedoman|peraturan)";
const ID_PRIOR = "(?:sebelumnya|terdahulu|di atas|awal|asli|sistem|yang diberikan)";

// Cyrillic: the imperative (and the infinitive machine translation writes), then the rules.
const RU_VERB = "(?:проигнорируй|игнорируй|игнорировать|забудь|забыть|отбрось|не обращай(?:те)? внимания на)(?:те)?";
const RU_PRIOR =
  "(?:предыдущие|прежние|вышеуказанные|вышеизложенные|вышеприведённые|изначальные|исходные|первоначальные|системные|ранее (?:полученные|данные))";
const RU_RULES = "(?:инструкции|указания|правила|команды|директивы|установки|ограничения|распоряжения|промпты)";
const UK_VERB = "(?:проігноруй|ігноруй|ігнорувати|забудь|забути|відкинь|не звертай(?:те)? уваги на)(?:те)?";
const UK_PRIOR = "(?:попередні|попередніх|вищезазначені|початкові|оригінальні|системні|раніше (?:отримані|надані))";
const UK_RULES = "(?:інструкції|інструкцій|вказівки|вказівок|правила|команди|директиви|налаштування|обмеження)";

/** The word a "regardless of the tasks" may end on. */
const PRIOR_WORDS = " (?:anteriores|précédentes|precedenti)";

/** Negations before a Cyrillic imperative ("не забудь"), and an Arabic letter before a verb (its negated or prefixed forms, "لا تتجاهل"). */
const NOT_RU = "(?<!не )";
const NOT_AR = "(?<![\\u0621-\\u064A])";

export const MULTILINGUAL_INJECTION_DETECTORS: Detector[] = groupRules([
  // Override of earlier instructions: qualified (previous, above, initial, system) it blocks; bare it needs company.
  inj(
    "instruction_override",
    1.0,
    `\\b${DE_VERB} (?:alle |die |deine |ihre |sämtliche |jegliche )*${DE_PRIOR} ${DE_RULES}${NOT_NEGATED_DE}${NOT_ANOTHERS_DE}${NOT_MINE_ELSEWHERE}${NOT_A_TOPIC}${NOT_A_CORRECTION}`,
  ),
  inj(
    "instruction_override",
    0.6,
    `\\b${DE_VERB} (?:alle |deine |ihre |sämtliche )+${DE_RULES}\\b${NOT_NEGATED_DE}${NOT_ANOTHERS_DE}${NOT_A_TOPIC}${NOT_A_CORRECTION}`,
  ),
  // Not a third party's order told before ("Laut den Anweisungen der Hausverwaltung sollen wir die alten Regeln vergessen").
  negatable(
    "instruction_override",
    1.0,
    NOT_AN_OWNERS_ORDER,
    `${DE_PRIOR} (?:${DE_RULES}|ausführungen|texte?) (?:ignorieren|vergessen|missachten|verwerfen)\\b`,
  ),
  // Earlier tasks struck from the head, or declared void, a few words on ("alle vorherigen Informationen ... sind irrelevant").
  negatable(
    "instruction_override",
    1.0,
    NOT_AN_OWNERS_ORDER,
    `${DE_PRIOR} (?:${DE_RULES}|ausführungen)\\b[^.!?\\n]{0,40}?(?:aus dem kopf (?:zu )?streichen|hinter (?:sich|dir|ihnen) (?:zu )?lassen|zu vergessen|zu ignorieren)`,
  ),
  inj(
    "instruction_override",
    1.0,
    `\\b${DE_PRIOR} (?:${DE_RULES}|ausführungen)\\b(?! (?:zur|zum|über|für|bezüglich|betreffend|zu) )${NOT_ANOTHERS_DE}[^.!?\\n]{0,50}?\\b(?:sind|waren) (?:jetzt |nun |ab sofort )?(?:irrelevant|ungültig|egal|hinfällig|nichtig|aufgehoben)`,
  ),
  inj(
    "instruction_override",
    1.0,
    `\\b(?:lassen sie|lass|lasst) (?:bitte )?(?:alle |die |sämtliche )?${DE_PRIOR} (?:${DE_RULES}|ausführungen) hinter (?:sich|dir|euch)\\b`,
  ),
  // "Regardless of the previous tasks": the English rule's weight (injection-indirect.ts); not before a clause with its
  // own subject or after another's tasks ("Independentemente das tarefas anteriores, o relatório deve ...").
  inj(
    "instruction_override",
    0.8,
    `\\b(?:independentemente (?:das|dos|de) (?:tarefas|instruções|regras|ordens)|independientemente de (?:las |los )?(?:tareas|instrucciones|reglas|órdenes)|indépendamment des (?:tâches|instructions|consignes|règles)|unabhängig von (?:den )?(?:vorherigen|bisherigen|obigen) (?:aufgaben|anweisungen|regeln)|indipendentemente dalle (?:istruzioni|attività|regole))(?: (?:anteriores|précédentes|precedenti))?${past(PRIOR_WORDS, NOT_A_SUBJECT_CLAUSE)}${past(PRIOR_WORDS, NOT_ANOTHERS_DE)}${past(PRIOR_WORDS, NOT_ANOTHERS_ROMANCE)}`,
  ),
  // Greek.
  script(
    "instruction_override",
    1.0,
    `(?:αγνόησε|αγνοήστε|αγνοήσετε|ξέχνα|ξεχάστε|ξέχασε) (?:όλες |ολες )?(?:τις )?(?:προηγούμενες|προηγουμενες|παραπάνω|αρχικές|αρχικες) (?:οδηγίες|οδηγιες|εντολές|εντολες|κανόνες|κανονες)`,
  ),
  // Croatian, Serbian and Bosnian (Latin script).
  negatable(
    "instruction_override",
    1.0,
    "(?<!ne )",
    `(?:zaboravi|zaboravite|ignoriraj|ignorirajte|ignoriši|ignorišite) (?:sve |svih )?(?:prethodne|prijašnje|gornje|ranije|početne|sistemske|sustavne) (?:instrukcije|upute|naredbe|naloge|smjernice|uputstva)`,
  ),
  negatable(
    "instruction_override",
    0.6,
    "(?<!ne )",
    `(?:zaboravi|zaboravite|ignoriraj|ignorirajte|ignoriši|ignorišite) (?:sve |svoje )(?:instrukcije|upute|naredbe|naloge|smjernice|uputstva)\\b`,
  ),
  inj(
    "instruction_override",
    0.8,
    `\\b(?:vergiss|vergessen sie|ignoriere|ignorieren sie) alles(?: gesagte| bisher gesagte)?,? (?:und |dann |jetzt |nun )?(?:schreib|sag|antworte|gib|zeig|beantworte)`,
  ),
  negatable(
    "instruction_override",
    1.0,
    `(?<!pas )${notAnOwnersOrder("(?:ignorer|oublier)")}`,
    `${FR_VERB} (?:toutes |tous )?(?:les |tes |vos |ces )?${FR_RULES} ${FR_PRIOR}${NOT_ANOTHERS_ROMANCE}${NOT_MINE_ELSEWHERE}${NOT_A_TOPIC}${NOT_A_CORRECTION}`,
  ),
  negatable(
    "instruction_override",
    0.5,
    `(?<!pas )${notAnOwnersOrder("(?:ignorer|oublier)")}`,
    `${FR_VERB} (?:toutes |tous )?(?:les |tes |vos )${FR_RULES}\\b${past(` ${FR_PRIOR}`, NOT_A_TOPIC)}${past(` ${FR_PRIOR}`, NOT_A_CORRECTION)}`,
  ),
  negatable(
    "instruction_override",
    1.0,
    "(?<!pas )",
    `${FR_VERB} (?:toutes |tous )?(?:les |tes |vos )${FR_RULES},? (?:et|puis) (?:dites|dis|écrivez|écris|répondez|réponds|affichez|affiche)\\b`,
  ),
  negatable(
    "instruction_override",
    1.0,
    "(?<!pas )",
    `${FR_VERB} tout ce (?:qui (?:précède|est (?:écrit )?ci-dessus|a été dit)|qu(?:e |[’'])(?:vous avez|tu as|on (?:vous|t[’'])a)\\b)`,
  ),
  negatable(
    "instruction_override",
    1.0,
    notAnOwnersOrder("(?:ignorar|olvidar)"),
    `${ES_VERB} (?:todas |todos )?(?:las |los |tus |sus |cualquier )?${ES_RULES} ${ES_PRIOR}${NOT_ANOTHERS_ROMANCE}${NOT_A_TOPIC}${NOT_A_CORRECTION}`,
  ),
  negatable(
    "instruction_override",
    0.6,
    notAnOwnersOrder("(?:ignorar|olvidar)"),
    `${ES_VERB} (?:todas |todos )(?:las |los |tus |sus )${ES_RULES}\\b`,
  ),
  inj(
    "instruction_override",
    1.0,
    `\\b${ES_VERB} todo (?:lo )?que (?:te |le |se )?(?:dije|dijeron|he dicho|han dicho|digo|indicaron|indiqué|escribí)`,
  ),
  negatable(
    "instruction_override",
    1.0,
    `(?<!não |nao )${notAnOwnersOrder("(?:ignorar|esquecer)")}`,
    `${PT_VERB} (?:todas |todos )?(?:as |os |suas |tuas |quaisquer )?${PT_RULES} ${PT_PRIOR}${NOT_ANOTHERS_ROMANCE}${NOT_MINE_ELSEWHERE}${NOT_A_TOPIC}${NOT_A_CORRECTION}`,
  ),
  negatable(
    "instruction_override",
    0.6,
    `(?<!não |nao )${notAnOwnersOrder("(?:ignorar|esquecer)")}`,
    `${PT_VERB} (?:todas |todos )(?:as |os |suas |tuas )${PT_RULES}`,
  ),
  negatable(
    "instruction_override",
    1.0,
    "(?<!não |nao )",
    `${PT_VERB} (?:tudo )?(?:o que (?:foi|está) (?:dito |escrito )?acima|o acima|tudo acima|tudo o que (?:te |lhe )?(?:disseram|foi dito|eu disse))`,
  ),
  negatable(
    "instruction_override",
    1.0,
    `(?<!non )${notAnOwnersOrder("(?:ignorare|dimenticare)")}`,
    `${IT_VERB} (?:tutte |tutti )?(?:le |i |gli |tue |sue |qualsiasi |ogni )?${IT_RULES} ${IT_PRIOR}${NOT_ANOTHERS_ROMANCE}${NOT_MINE_ELSEWHERE}${NOT_A_TOPIC}${NOT_A_CORRECTION}`,
  ),
  negatable(
    "instruction_override",
    0.6,
    `(?<!non )${notAnOwnersOrder("(?:ignorare|dimenticare)")}`,
    `${IT_VERB} (?:tutte |tutti )(?:le |i |gli |tue |sue )${IT_RULES}`,
  ),
  inj(
    "instruction_override",
    1.0,
    `\\b(?:dimentica|dimenticate|ignora|ignorate) tutto (?:quello che|ciò che|quanto) (?:ti |vi )?(?:è stato detto|hanno detto|ho detto|detto)`,
  ),
  negatable(
    "instruction_override",
    1.0,
    notAnOwnersOrder("vergeten"),
    `${NL_VERB} (?:alle |de |je |jouw |uw |al je |al uw )*${NL_PRIOR} ?${NL_RULES}${NOT_NEGATED_DE}${NOT_ANOTHERS_DE}${NOT_MINE_ELSEWHERE}${NOT_A_TOPIC}${NOT_A_CORRECTION}`,
  ),
  inj(
    "instruction_override",
    1.0,
    `\\b(?:vergeet|negeer) alles (?:wat (?:je|u|jou|jij) (?:is|werd|eerder) (?:gezegd|verteld|opgedragen)|hierboven|hiervoor)`,
  ),
  negatable(
    "instruction_override",
    1.0,
    "(?<!nie )",
    `${PL_VERB} (?:wszystkie |wszystkich |wszelkie |twoje |twoich |swoje |swoich |te |tych )*${PL_PRIOR} ${PL_RULES}`,
  ),
  inj("instruction_override", 1.0, `\\bzapomnij o wszystkim,? co (?:ci |wam )?(?:powiedziano|kazano|mówiono|napisano)`),
  inj("instruction_override", 1.0, `\\b${SV_VERB} (?:alla |de |dina |era |alla dina )*${SV_PRIOR} ?${SV_RULES}`),
  inj("instruction_override", 1.0, `\\b(?:glöm|ignorera) allt (?:du (?:har )?(?:fått höra|blivit tillsagd)|ovan|ovanför|tidigare)`),
  negatable(
    "instruction_override",
    1.0,
    "(?<!jangan )",
    `${ID_VERB} (?:semua |seluruh |segala |setiap )?${ID_RULES}(?: yang)? ${ID_PRIOR}`,
  ),
  negatable("instruction_override", 0.6, "(?<!jangan )", `${ID_VERB} (?:semua |seluruh |segala )${ID_RULES}\\b`),
  negatable(
    "instruction_override",
    1.0,
    "(?<!jangan )",
    `${ID_VERB} (?:semua |segala )?(?:yang |hal )?(?:di atas|sebelumnya|yang telah (?:dikatakan|diberikan))`,
  ),
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
  script(
    "instruction_override",
    1.0,
    `(?:забудь|забудьте|проигнорируй|проигнорируйте|игнорируй|игнорируйте) (?:всё|все)(?:,? что (?:тебе |вам )?(?:говорили|сказали|было сказано|написано)| (?:выше|вышесказанное|до этого|сказанное ранее))`,
    NOT_RU,
  ),
  script("instruction_override", 1.0, `${UK_VERB} (?:усі |всі |будь-які |свої |твої |ваші )*${UK_PRIOR} ${UK_RULES}`, NOT_RU),
  script(
    "instruction_override",
    1.0,
    `(?:забудь|забудьте|проігноруй|ігноруй) (?:усе|все)(?:,? що (?:тобі |вам )?(?:казали|сказали|було сказано)| (?:вище|вищесказане|до цього))`,
    NOT_RU,
  ),
  script(
    "instruction_override",
    1.0,
    `(?:忽略|忽视|忽視|无视|無視|忘记|忘記|忘掉|不要理会|不要理會|跳过|跳過|抛开|拋開|丢弃|丟棄)(?:掉)?(?:你)?(?:之前|以前|先前|上面|上述|以上|前面|此前|原来|原來|原先|原始|最初|所有|全部)(?:的)?(?:所有|全部|一切)?(?:的)?(?:指令|指示|说明|說明|规则|規則|命令|提示|要求|限制|约束|約束|内容|內容|一切)`,
    "(?<!不要|不要去|别|別|不可|不能|切勿|请勿|請勿|勿|不)",
  ),
  script(
    "instruction_override",
    1.0,
    `(?:以前の|前の|これまでの|今までの|上記の|先の|最初の|元の|以上の|前述の|システムの)(?:すべての|全ての)?(?:指示|命令|指令|ルール|プロンプト|制約|ガイドライン|内容)(?:を|は)(?:すべて|全て)?(?:無視|忘れ|破棄)(?!しない|せず|しちゃ|しては|するな|しなくて|ないで)`,
  ),
  script(
    "instruction_override",
    1.0,
    `(?:上記|以上|これまで|今まで)(?:の内容|のこと)?(?:は|を)(?:すべて|全て)?(?:無視|忘れ)(?!しない|せず|しちゃ|しては|するな|ないで)`,
  ),
  script(
    "instruction_override",
    1.0,
    `(?:이전|앞의|앞선|위의|위에|기존|원래|초기|시스템) ?(?:의 )?(?:모든 )?(?:지시사항|지시 사항|지시|지침|명령|명령어|규칙|프롬프트|내용|것)(?:들)?(?:을|를|은|는)? ?(?:모두 |전부 |다 )?(?:무시|잊어|잊으|잊고)(?!하지 ?마|하면 안|해서는)`,
  ),
  script(
    "instruction_override",
    1.0,
    `(?:تجاهل|تجاهلي|تجاهلوا|انس|انسى|انسي|أهمل|اهمل|تخط) (?:جميع |كل |كافة )?(?:التعليمات|الإرشادات|الارشادات|الأوامر|الاوامر|القواعد|التوجيهات)(?: التي تلقيتها)? ?(?:السابقة|السابقه|الأصلية|الاصلية|الأولية|أعلاه|اعلاه|المذكورة أعلاه|الخاصة بالنظام)`,
    NOT_AR,
  ),
  script(
    "instruction_override",
    1.0,
    `(?:تجاهل|تجاهلي|انس|انسى|انسي|تغاض|تغاضى|تغاضي) (?:عن )?(?:كل ما (?:سبق|قيل|تم|تلقيت|ورد)|ما سبق|ما ورد أعلاه|ما قيل لك)`,
    NOT_AR,
  ),
  script(
    "instruction_override",
    1.0,
    `(?:पिछले|पिछली|पूर्व|ऊपर दिए गए|ऊपर दिये गए|ऊपर के|पहले के|पहले दिए गए|मूल|प्रारंभिक|सिस्टम) (?:सभी |सारे )?(?:निर्देशों|निर्देश|आदेशों|आदेश|नियमों|नियम|दिशानिर्देशों|हिदायतों)(?: को)? (?:की )?(?:अनदेखी|अनदेखा|नज़?रअंदाज़?|भूल|उपेक्षा)(?! ?(?:न|मत|नहीं) )`,
  ),
  // Bengali (machine translations of English attacks reach it as often as Hindi).
  script(
    "instruction_override",
    1.0,
    `(?:আগের|পূর্ববর্তী|পূর্বের|উপরের|সমস্ত পূর্ববর্তী) (?:সমস্ত |সব )?(?:নির্দেশাবলী|নির্দেশনা|নির্দেশগুলি|নির্দেশগুলো|নির্দেশ|কথাগুলো|কথা|নিয়মগুলো|নিয়ম)(?:কে)? (?:উপেক্ষা|ভুলে যান|ভুলে যাও|অগ্রাহ্য)(?! করবেন না| করো না| কোরো না)`,
  ),
  script("instruction_override", 1.0, `(?:আপনাকে যা|তোমাকে যা|যা) বলা হয়েছে তা (?:উপেক্ষা|ভুলে)(?! করবেন না| করো না| কোরো না)`),
]);
