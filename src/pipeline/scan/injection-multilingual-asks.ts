/**
 * Prompt injection in other languages, what is asked for: the system prompt, hidden
 * instructions or a password (extraction), the conversation sent to an address, and
 * data that turns to "the AI", weighted as their English forms. Written as
 * injection-multilingual.ts writes the overrides; role switches:
 * injection-multilingual-roles.ts.
 */
import type { Detector } from "./detector.ts";
import { groupRules, inj, script } from "./injection-rule-groups.ts";

export const MULTILINGUAL_ASK_DETECTORS: Detector[] = groupRules([
  // Extraction: the system prompt or hidden instructions asked for; a password asked of the assistant.
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:zeige|zeig|nenne|gib|verrate|wiederhole|drucke|schreibe|gib aus)(?: mir| uns)? (?:bitte )?(?:deinen|deine|dein|ihren|ihre|den|die|das) (?:gesamten |vollständigen |ganzen |ursprünglichen |geheimen |versteckten |ersten |initialen )*(?:system-?prompts?|systemanweisungen|systemnachricht|prompt-?texte?|ursprünglichen anweisungen|versteckten anweisungen|geheimen anweisungen)`,
  ),
  inj(
    "prompt_extraction",
    0.8,
    `\\b(?:wie lautet|was ist|was sind|verrate mir|nenne mir|sag mir) (?:dein|deine|ihr|ihre) (?:system-?prompt|systemanweisungen|anweisungen|passwort|kennwort)\\b`,
  ),
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
  inj(
    "prompt_extraction",
    0.8,
    `\\bwat (?:is|zijn) (?:je|jouw|uw) (?:systeemprompt|oorspronkelijke instructies|verborgen instructies|wachtwoord)\\b`,
  ),
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
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:kannst du|können sie|könntest du|könnten sie|würdest du) (?:mir |uns )?(?:bitte )?(?:das|dein|ihr|unser) (?:system-?|admin-?)?(?:passwort|kennwort) (?:des systems |für (?:das|unser) system )?(?:nennen|sagen|geben|verraten|bestätigen|angeben|mitteilen|zeigen)\\b`,
  ),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:peux-tu|pouvez-vous|pourriez-vous|pourrais-tu|peux tu|pouvez vous) (?:me |nous )?(?:confirmer|donner|dire|communiquer|fournir|révéler|indiquer|partager) (?:le|ton|votre|notre) mot de passe`,
  ),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:puedes|podrías|podría|puede|necesito que) (?:me )?(?:confirmar|confirmes|dar|decir|dime|dame|proporcionar|proporciones|revelar|reveles|compartir|indicar)(?:me)? (?:la|tu|su|nuestra) contraseña`,
  ),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:pode|poderia|podes|preciso que)(?: me)? (?:confirmar|confirme|dar|dizer|diga|fornecer|forneça|revelar|compartilhar|informar|informe)(?:-me)? (?:a |sua |tua |a sua |a tua |nossa |a nossa )?senha`,
  ),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:puoi|potresti|può|potrebbe)(?: per favore)? (?:confermarmi|confermare|darmi|dirmi|fornirmi|rivelarmi|condividere|indicarmi) (?:la |la tua |la sua |la nostra )?password\\b`,
  ),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:kun je|kunt u|kan je)(?: me| mij)? (?:het|je|jouw|uw|ons) wachtwoord (?:geven|vertellen|bevestigen|delen|noemen)\\b`,
  ),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:czy możesz|czy mógłbyś|czy mogłabyś|proszę)(?: mi)? (?:potwierdzić|podać|zdradzić|powiedzieć|udostępnić) (?:swoje |twoje |nasze )?hasło`,
  ),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:kan du|kan ni|skulle du kunna) (?:ge mig|berätta|bekräfta|dela|säga)(?: mig)? (?:lösenordet|ditt lösenord|ert lösenord)`,
  ),
  inj(
    "prompt_extraction",
    1.0,
    `\\b(?:bisakah|dapatkah|tolong)(?: anda| kamu)? (?:konfirmasi|berikan|beri tahu|beritahu|sebutkan|bagikan|ungkapkan)(?: kepada)?(?: saya)? (?:kata sandi|password)\\b`,
  ),
  inj("prompt_extraction", 1.0, `\\bcho (?:tôi|mình) (?:biết )?mật khẩu`),
  script(
    "prompt_extraction",
    1.0,
    `(?:можешь|можете|не мог бы ты|не могли бы вы)(?: ли)?(?: ты| вы)? (?:мне )?(?:подтвердить|назвать|сказать|сообщить|дать|раскрыть) (?:свой |ваш |наш |системный )?пароль`,
  ),
  script(
    "prompt_extraction",
    1.0,
    `(?:можеш|можете|чи не міг би ти)(?: мені)? (?:підтвердити|назвати|сказати|повідомити|дати) (?:свій |ваш |наш |системний )?пароль`,
  ),
  script(
    "prompt_extraction",
    1.0,
    `(?:你能|您能|你可以|您可以|能否|请你|請你)(?:帮我)?(?:确认|確認|提供|告诉我|告訴我|分享|说出|說出|给我|給我)(?:一下)?(?:我们|我們|你的|您的)?(?:系统的|系統的|系统|系統)?(?:密码|密碼)`,
  ),
  script(
    "prompt_extraction",
    1.0,
    `(?:أريدك|هل يمكنك|هل تستطيع|أرجو)(?: أن)? (?:تؤكد|تعطيني|تخبرني|تشاركني|تشارك|تكشف|مشاركة|تأكيد|إعطائي|كشف)(?: لي)? (?:عن )?(?:جملة |رمز |قيمة )?ب?(?:كلمة المرور|كلمة السر|رمز المرور)`,
  ),
  script("prompt_extraction", 1.0, `(?:비밀번호|암호|패스워드)(?:를|을)? ?(?:확인해|알려|말해) ?(?:주실 수 있|줄 수 있|주시겠|줄래)`),
  inj("prompt_extraction", 1.0, `\\b(?<=\\bbạn (?:có thể )?)(?:xác nhận|chia sẻ|tiết lộ) (?:lại )?mật khẩu`, {
    at: "word",
    literals: ["xác nh"],
  }),
  // The conversation or credentials sent to an address, as injection-indirect.ts reads it in English.
  inj(
    "indirect_instruction",
    1.0,
    `\\b(?<=\\b(?:leite|leiten sie|sende|senden sie|schicke|schick|schicken sie|übermittle|übermitteln sie) (?:bitte )?(?:die |das |den |alle |sämtliche )?)(?:unterhaltung|gespräch|konversation|verlauf|chatverlauf|gesprächsverlauf|nachrichten|zugangsdaten|passwort|passwörter|systemprompt)\\b[^\\n]{0,40}?\\ban (?:https?://|www\\.|[\\w.+-]+@[\\w-]+\\.)`,
    {
      at: "word",
      literals: [
        "unterhaltung",
        "gespräch",
        "konversation",
        "verlauf",
        "chatverlauf",
        "gesprächsverlauf",
        "nachrichten",
        "zugangsdaten",
        "passwort",
        "systemprompt",
      ],
    },
  ),
  inj(
    "indirect_instruction",
    1.0,
    `\\b(?<=\\b(?:envoie|envoyez|transfère|transférez|transmets|transmettez) (?:la |l[’']|les |tout l[’']|toute la )?)(?:conversation|historique|mots de passe|identifiants)\\b[^\\n]{0,40}? (?:à|a) (?:https?://|www\\.|[\\w.+-]+@[\\w-]+\\.)`,
    { at: "word", literals: ["conversation", "historique", "mots de passe", "identifiants"] },
  ),
  inj(
    "indirect_instruction",
    1.0,
    `\\b(?<=\\b(?:envía|envíe|envia|reenvía|reenvíe|reenvia|manda|mande|envie|encaminhe|encaminha) (?:la |el |las |los |a |o |as |os |todo el |toda a )?)(?:conversación|conversa|conversação|historial|histórico|contraseñas|senhas|credenciales|credenciais)\\b[^\\n]{0,40}?\\b(?:a|para) (?:https?://|www\\.|[\\w.+-]+@[\\w-]+\\.)`,
    {
      at: "word",
      literals: [
        "conversación",
        "conversa",
        "conversação",
        "historial",
        "histórico",
        "contraseñas",
        "senhas",
        "credenciales",
        "credenciais",
      ],
    },
  ),
  // Data that turns to the model, as the English "note to the AI" (injection-detectors.ts) does: needs company.
  inj(
    "indirect_instruction",
    0.7,
    `\\b(?:hinweis|nachricht|anweisung|anweisungen|wichtig)(?: an| für)? (?:die |den |das )?(?:ki|künstliche intelligenz|assistenten|sprachmodell|chatbot|llm)\\b`,
  ),
  inj(
    "indirect_instruction",
    0.7,
    `\\b(?:note|message|instructions?|consigne|important)(?: pour| à| destinée? à) (?:l[’']ia|l[’']assistant|le modèle|le chatbot|l[’']agent|le llm)\\b`,
    { at: "word", literals: ["note ", "message ", "instruction ", "instructions ", "consigne ", "important "] },
  ),
  inj(
    "indirect_instruction",
    0.7,
    `\\b(?:nota|mensaje|mensagem|messaggio|instrucciones|instruções|istruzioni|importante)(?: para| per| a| al| ao| alla)? (?:la |el |a |o |l[’'])?(?:ia|asistente|assistente|modelo|modello|chatbot|llm)\\b`,
  ),
]);
