// How a plant-room heat meter's localization is read (docs/uvi.md, "Which plant meter is which"):
// the warm-water heat meter of § 9 Abs. 2 HeizkostenV only when the name speaks of warm water and of
// nothing else. The contract has no field for it (the landlord can say it: --plant-meters). Read the
// other way round, as a list of words that make a name the whole plant's, each review round found a
// new name that slipped through ("WW + HK", "Nahwärme TWW"): the whole plant's heat then went into warm
// water. So every word must be one known to be harmless in a warm-water heat meter's name; any other
// word makes the name unclear: read as the whole plant's heat meter, with a check row in review.csv. Pure.

// The names installers and metering services give warm-water heating (Warmwasser- or
// Trinkwassererwärmung, WW, TWW, TWE, the store's Speicherladung or Boiler, a Frischwasserstation;
// Brauchwasser is the older word), read on the lower-cased name with ä, ö, ü, ß spelt out (nameKey). A
// Pufferspeicher holds heating water, and an English "boiler room" or "gas boiler" is the heating plant,
// not the German Boiler (a warm-water store). A name none of these fits is the plant's heat meter.
export const WARM_WATER = new RegExp(
  [
    String.raw`warm\s*-?\s*wasser`,
    'trinkwasser',
    'brauchwasser',
    'frischwasser',
    String.raw`speicher(?<!puffer\s*-?\s*speicher)\s*-?\s*lad`,
    String.raw`boiler(?<!(?:main|gas|oil|central|heating)\s*boiler)(?!\s*-?\s*(?:room|house|plant))`,
    String.raw`\b(?:t?ww|wwb|wwe|twe|pwh)\b`,
    String.raw`hot\s*-?\s*water`,
    String.raw`\bdhw\b`,
  ].join('|'),
);

// The parts a harmless word is made of, alone or joined ("Warmwasserbereitung", "WW-Speicher",
// "Fühlertauchhülse"). Warm water and its parts: what warm-water heating consists of (the store, its
// loading, the circulation, the station). The meter and its fittings: what every meter's name may say
// of itself. None of them names heating, a radiator, a heat source or the whole supply: "Wärme" alone is
// no part (Wärmeerzeugung, Nahwärme, Fernwärme), only the meter words Wärmezähler, Wärmemengenzähler.
const PARTS = [
  // warm water
  'warmwasser trinkwarmwasser trinkwasser brauchwasser frischwasser wasser tww ww wwb wwe twe pwh dhw boiler hot water domestic',
  // its parts
  'erwaermung erwaermer bereitung bereiter erzeugung versorgung speicher ladung lade system station zirkulations? kreis anlage leitung',
  // the meter and its fittings
  'wmz wz waermezaehler waermemengenzaehler mengenzaehler unterzaehler zaehler messung messstelle messpunkt nummer meter funk fuehler tauch huelse',
]
  .join(' ')
  .split(' ');
const COMPOSED = new RegExp(`^(?:${PARTS.join('|')})(?:-?(?:${PARTS.join('|')}))*$`);
// After an "und", "+" or ",", only warm water itself, its store and its circulation, alone or as the first part of
// its station or system ("TWW inkl. Zirkulation", "mit Speicherladesystem", "mit Frischwasserstation"), and the
// meter's fittings ("Funk, mit Fühlertauchhülse"): an Anlage, Kreis, Erzeugung, Versorgung, System, Station or Boiler
// standing alone there may be the heating's ("TWW + Gesamtanlage", "TWW und Kreis 1", "Hot water + boiler": round 17
// read them as warm water's, 480 kWh of hot water for 375).
const WARM_WATER_PARTS =
  'warmwasser trinkwarmwasser trinkwasser brauchwasser frischwasser wasser tww ww wwb wwe twe pwh dhw erwaermung bereitung speicher ladung lade zirkulations?';
const JOINED = new RegExp(
  `^(?:(?:${WARM_WATER_PARTS.split(' ').join('|')})(?:-?(?:${WARM_WATER_PARTS.split(' ').join('|')}))*(?:-?(?:system|station|anlage|kreis|bereiter|erwaermer))?|funk|fuehler-?tauch-?huelse|fuehler|tauchhuelse)$`,
);

// Where the meter sits: a house, entrance or wing of the Property, a floor, a side, a riser, a street
// ("Haus 1", "2. OG links", "Hinterhaus", "Hauptstr. 12", "No. 2"); and which of two meters it is ("WMZ
// Warmwasser alt", a replaced one).
const PLACE =
  /^(?:(?:vorder|hinter|neben|haupt|garten|quer|seiten|mittel|alt|neu)?-?(?:haus|gebaeude|fluegel|bau)|alt|neu|(?:vorder|hinter|neben|seiten)-|aufgang|eingang|treppenhaus|stiege|block|keller|dach|hof|strang|links|rechts|mitte|nord|sued|ost|west|eg|ug|kg|og|dg|nr|no|nummer|im|in|am|[a-z]+(?:strasse|str|weg|gasse|platz|allee))$/;
// A number or a letter labels a house, entrance or meter ("Haus A", "Aufgang A+B", "Speicher 2"): a letter only after
// such a place or another label ("WW+H" or "WMZ H WW" may mean heating), and either after an "und"/"+" only when one
// stands before it ("Haus 1 und 2", not "TWW + 2").
const LABEL = /^(?:\d+[a-z]?|[a-z])$/;
// The plant room the warm-water heat meter sits in ("Heizungskeller", "Heizzentrale", "Kesselhaus"): harmless
// before any "und"/"mit", not after one ("TWW und Heizzentrale" names the plant beside warm water).
const ROOM = /^(?:heiz(?:ungs?)?|hzg|kessel|technik|betriebs)-?(?:raum|keller|zentrale|haus)$/;
// What warm water includes or what else it serves ("TWW inkl. Zirkulation", "Haus 1 und 2", "A+B"): harmless
// after the warm-water word; before it, warm water is what is included ("Heizzentrale inkl. TWW").
const JOINER = /^(?:und|mit|inkl|inklusive|einschl|einschliesslich|samt|plus|zzgl|and|with|incl|\+|&|\/|,)$/;
// All the warm water ("Warmwasser Gesamt", "Gesamtanlage"): after the warm-water word only ("Gesamt-WMZ TWW" is the whole
// supply's), and not after an "und"/"+" ("WW + gesamt" is warm water and the whole).
const AFTER_WARM_WATER = /^(?:gesamt|gesamtanlage)$/;
// A town or street named by its own word ("Frankfurt am Main", "Halle (Saale)", "Berliner Straße"): a word of
// letters before a river or a street word, unless it speaks of heat or the whole supply.
const RIVER = /^(?:main|rhein|oder|elbe|donau|saale|havel|spree|lahn|neckar|mosel|ruhr|weser|isar|inn|lech|ilm|werra|fulda)$/;
const STREET = /^(?:strasse|str|weg|gasse|platz|allee)$/;
const NOT_A_TOWN = /heiz|hk|radiat|waerme|warm|wasser|kessel|erzeug|gesamt|total|anlage|haupt|fern|nah|kreis|heat|plant/;
// The English meter word ("DHW heat meter", "heat-meter"): "heat" is no part of its own, it may name the heating.
const HEAT_METER = /^heat-?meter$/;
/** Longer words and names are no installer's: unclear, and each word's test stays short. */
const MAX_WORD = 64;
const MAX_WORDS = 40;

/**
 * A name as the patterns read it: lower case, umlauts and ß spelt out (composed or not: "Waerme", "Wärme"),
 * each run of white space one space. A hostile answer's 100,000 spaces between "warm" and "x" made the
 * patterns' `\s*-?\s*` try every split: 29 s for one name; a run of one space has none to try.
 */
export const nameKey = (name: string) =>
  name.normalize('NFC').toLowerCase().replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss').replace(/\s+/g, ' ');

/** The words of a name key: "+", "&", "/" and "," are words of their own; brackets, dots, quotes and lone dashes separate. */
const wordsOf = (key: string) => (key.match(/[+&/,]|[^\s.()[\]:;"'„“”#+&/,]+/g) ?? []).filter((w) => !/^[-–—_]+$/.test(w));

// a word of the meter's own name is no town ("DHW main": the main meter, not the river Main after a town "DHW")
const town = (word: string | undefined) => word !== undefined && /^[a-z]{3,}$/.test(word) && !NOT_A_TOWN.test(word) && !COMPOSED.test(word);
/** The town's or street's own word, or the river after it ("am" is a place's word). */
const townOrStreet = (words: readonly string[], i: number) => {
  const [before, word, next, after] = [words[i - 1], words[i]!, words[i + 1] ?? '', words[i + 2] ?? ''];
  if (STREET.test(word)) return true;
  if (RIVER.test(word)) return before === 'am' || town(before);
  return town(word) && (STREET.test(next) || RIVER.test(next) || (next === 'am' && RIVER.test(after)));
};

const labelled = (words: readonly string[], i: number) => {
  const [before, word] = [words[i - 1] ?? '', words[i]!];
  if (JOINER.test(before)) return LABEL.test(words[i - 2] ?? '');
  return /^\d/.test(word) || PLACE.test(before) || LABEL.test(before);
};

// "Boiler" is the German warm-water store only in a German name; in English it is the heating's ("Boiler incl. DHW",
// "Boiler heat meter", "Hot water boiler meter": round 22 and 23 read them as warm water's). A German name has a German
// word of the meter, warm water, its parts, a joiner or a place ("west" and "block" are English too), and no English one.
const GERMAN_WORD = /zaehler|wasser|speicher|ladung|erwaerm|bereit|^(?:wmz|wz|tww|ww|twe|wwb|wwe|und|mit|inkl|inklusive|einschl|einschliesslich|samt|zzgl)$/;
const ENGLISH_WORD = /^(?:dhw|hot|water|domestic|meter|heat|heat-?meter|and|with|incl|including|plus|system|station|main)$/;
const germanName = (words: readonly string[]) =>
  words.some((w) => GERMAN_WORD.test(w) || (PLACE.test(w) && !/^(?:in|no|west|block)$/.test(w))) && !words.some((w) => ENGLISH_WORD.test(w));

/** Whether every word of a name that mentions warm water is harmless there, in its place (see above). */
function onlyWarmWater(key: string): boolean {
  const words = wordsOf(key);
  if (words.length > MAX_WORDS || words.some((w) => w.length > MAX_WORD)) return false;
  let joined = false;
  const boilerIsStore = germanName(words);
  return words.every((word, i) => {
    if (word.includes('boiler') && !boilerIsStore) return false;
    const warmWaterBefore = WARM_WATER.test(words.slice(0, i).join(' '));
    if (JOINER.test(word)) return (joined = warmWaterBefore);
    if (AFTER_WARM_WATER.test(word)) return warmWaterBefore && !joined;
    if (ROOM.test(word)) return !joined;
    if (LABEL.test(word)) return labelled(words, i);
    // English "heat" only as the meter's own word ("DHW heat meter"), never standing alone ("Hot water heat", "DHW + heat")
    if (HEAT_METER.test(word)) return !joined;
    if (word === 'heat') return !joined && words[i + 1] === 'meter';
    if (joined && COMPOSED.test(word)) return JOINED.test(word);
    return COMPOSED.test(word) || PLACE.test(word) || townOrStreet(words, i);
  });
}

/** How a plant heat meter's name reads: warm water's own, unclear (warm water named beside anything else), or the plant's. */
export function readPlantName(name: string): 'warm_water' | 'unclear' | 'plant' {
  const key = nameKey(name);
  if (!WARM_WATER.test(key)) return 'plant';
  return onlyWarmWater(key) ? 'warm_water' : 'unclear';
}
