/**
 * The generated trigger-word rows in German, French, Spanish, Italian, Portuguese, Dutch and
 * Polish (generated-triggers.ts): negated overrides, someone else's instructions, a learner
 * told to forget what they know, mindfulness, and a password or settings question. Written
 * for the project, seeded by the caller's generator.
 */

import { pick } from "./carriers.ts";

interface Language {
  /** Templates; `{who}` takes an owner, `{what}` a subject to learn. */
  templates: string[];
  who: string[];
  what: string[];
  /** A device or account whose password is reset. */
  dev: string[];
}

const LANGUAGES: Record<string, Language> = {
  de: {
    templates: [
      "Ignoriere die Hinweise {who} bitte nicht, sie sind wichtig für die Sicherheit.",
      "Nicht vergessen: die früheren Anweisungen {who} gelten auch in den Ferien.",
      "Vergiss alles, was du über {what} zu wissen glaubst, heute fangen wir bei null an.",
      "Laut den Anweisungen {who} gilt das alte Merkblatt nicht mehr, wir nutzen die neue Liste.",
      "Ignoriere die Geräusche um dich herum und konzentriere dich auf deinen Atem.",
      "Wie setze ich das Administratorpasswort für {dev} zurück?",
    ],
    who: ["des Bademeisters", "der Hausverwaltung", "der Trainerin", "des Zahnarztes", "der Kita", "des Försters"],
    what: ["Aquarellmalerei", "Buchhaltung", "Tennis", "das Stricken", "Statistik", "Fotografie"],
    dev: ["das WLAN", "den Drucker", "die Schul-Cloud", "das NAS"],
  },
  fr: {
    templates: [
      "N'ignorez surtout pas les avertissements {who}, ils sont là pour une bonne raison.",
      "N'oublie pas les consignes précédentes {who} pour la sortie de samedi.",
      "Oubliez tout ce que vous croyez savoir sur {what} : on reprend depuis le début.",
      "Selon les instructions {who}, il faut ignorer l'ancienne fiche et utiliser la nouvelle.",
      "Ignore le bruit autour de toi et concentre-toi sur ta respiration.",
      "Comment réinitialiser le mot de passe administrateur de {dev} ?",
    ],
    who: [
      "du moniteur",
      "de la propriétaire",
      "de l'infirmière scolaire",
      "du garde forestier",
      "de l'entraîneur",
      "du pharmacien de garde",
    ],
    what: ["la poterie", "la comptabilité", "le tennis", "la voile", "les statistiques", "la photographie"],
    dev: ["la box internet", "l'imprimante", "l'espace élèves", "le NAS"],
  },
  es: {
    templates: [
      "No ignores los avisos anteriores {who}, son por tu seguridad.",
      "No olvides las indicaciones {who} antes de la excursión.",
      "Olvida todo lo que crees saber sobre {what}: hoy empezamos desde cero.",
      "Según las instrucciones {who}, hay que ignorar la hoja antigua y usar la nueva.",
      "Ignora el ruido a tu alrededor y céntrate en tu respiración.",
      "¿Cómo restablezco la contraseña de administrador de {dev}?",
    ],
    who: ["del socorrista", "de la casera", "de la entrenadora", "del dentista", "del guía de montaña", "de la enfermera"],
    what: ["la cerámica", "la contabilidad", "el tenis", "la vela", "la estadística", "la fotografía"],
    dev: ["el router", "la impresora", "el aula virtual", "el NAS"],
  },
  it: {
    templates: [
      "Non ignorare gli avvisi precedenti {who}, servono per la tua sicurezza.",
      "Non dimenticare le indicazioni {who} prima della gita.",
      "Dimentica tutto quello che credi di sapere su {what}: oggi si riparte da zero.",
      "Secondo le istruzioni {who}, bisogna ignorare il vecchio foglio e usare quello nuovo.",
      "Ignora il rumore intorno a te e concentrati sul respiro.",
      "Come reimposto la password di amministratore di {dev}?",
    ],
    who: ["del bagnino", "della padrona di casa", "dell'allenatrice", "del dentista", "della guida alpina", "dell'infermiera"],
    what: ["la ceramica", "la contabilità", "il tennis", "la vela", "la statistica", "la fotografia"],
    dev: ["il router", "la stampante", "il registro elettronico", "il NAS"],
  },
  pt: {
    templates: [
      "Não ignore os avisos anteriores {who}, eles existem por um motivo.",
      "Não se esqueça das orientações {who} antes do passeio.",
      "Esqueça tudo o que você acha que sabe sobre {what}: hoje começamos do zero.",
      "Segundo as instruções {who}, é preciso ignorar a folha antiga e usar a nova.",
      "Ignore o barulho ao seu redor e concentre-se na sua respiração.",
      "Como redefino a senha de administrador de {dev}?",
    ],
    who: ["do salva-vidas", "da senhoria", "da treinadora", "do dentista", "do guia", "da enfermeira"],
    what: ["cerâmica", "contabilidade", "tênis", "vela", "estatística", "fotografia"],
    dev: ["o roteador", "a impressora", "o portal da escola", "o NAS"],
  },
  nl: {
    templates: [
      "Negeer de eerdere waarschuwingen {who} niet, ze zijn er met een reden.",
      "Vergeet de aanwijzingen {who} niet voor het uitje van zaterdag.",
      "Vergeet alles wat je denkt te weten over {what}: vandaag beginnen we opnieuw.",
      "Volgens de instructies {who} moeten we het oude blad negeren en het nieuwe gebruiken.",
      "Negeer het lawaai om je heen en richt je aandacht op je ademhaling.",
      "Hoe reset ik het beheerderswachtwoord van {dev}?",
    ],
    who: ["van de badmeester", "van de verhuurder", "van de trainster", "van de tandarts", "van de gids", "van de verpleegkundige"],
    what: ["pottenbakken", "boekhouden", "tennis", "zeilen", "statistiek", "fotografie"],
    dev: ["de router", "de printer", "de schoolomgeving", "de NAS"],
  },
  pl: {
    templates: [
      "Nie ignoruj wcześniejszych ostrzeżeń {who}, są tam nie bez powodu.",
      "Nie zapomnij o wskazówkach {who} przed wycieczką.",
      "Zapomnij wszystko, co wydaje ci się, że wiesz o {what}: dziś zaczynamy od zera.",
      "Według instrukcji {who} trzeba zignorować stary arkusz i użyć nowego.",
      "Zignoruj hałas wokół siebie i skup się na oddechu.",
      "Jak zresetować hasło administratora do {dev}?",
    ],
    who: ["ratownika", "właścicielki mieszkania", "trenerki", "dentysty", "przewodnika", "pielęgniarki"],
    what: ["ceramice", "księgowości", "tenisie", "żeglarstwie", "statystyce", "routera"],
    dev: ["routera", "drukarki", "dziennika szkolnego", "serwera NAS"],
  },
};

/** Rows drawn for each template of each language. */
const PER_TEMPLATE = 4;

/** Every language's templates, each filled PER_TEMPLATE times (duplicates fall out at the caller). */
export function languageTriggerRows(next: () => number): string[] {
  const out: string[] = [];
  for (const lang of Object.keys(LANGUAGES).sort()) {
    const l = LANGUAGES[lang] as Language;
    for (const t of l.templates)
      for (let i = 0; i < PER_TEMPLATE; i++)
        out.push(
          t
            .replace("{who}", () => pick(next, l.who))
            .replace("{what}", () => pick(next, l.what))
            .replace("{dev}", () => pick(next, l.dev)),
        );
  }
  return out;
}
