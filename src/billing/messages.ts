// Accountant-facing texts for every flag, English and German: what happened, what to do.
import type { Flag, FlagCode, ReviewRow, Severity } from './types.js';

export type Lang = 'en' | 'de';
interface Text { title: string; explanation: string }

const TEXTS: Record<FlagCode, Record<Lang, Text>> = {
  CALIBRATION_EXPIRED: {
    en: { title: 'Calibration expired: value must not be billed', explanation: "The device's calibration period had ended, so its consumption for this period is not billed (counted as 0). Arrange for the device to be replaced and agree with the landlord how this consumption is allocated (e.g. an estimate)." },
    de: { title: 'Eichfrist abgelaufen: Wert darf nicht abgerechnet werden', explanation: 'Die Eichfrist des Geräts war abgelaufen; der Verbrauch für diesen Zeitraum wurde mit 0 angesetzt und nicht abgerechnet. Bitte den Gerätetausch veranlassen und mit dem Eigentümer klären, wie der Verbrauch verteilt wird (z. B. Schätzung nach § 9a HeizkostenV).' },
  },
  MISSING_VALUE: {
    en: { title: 'Value missing: not billed', explanation: 'No value was delivered for the end of the period, so this device is counted as 0. Request a reading from the metering service or agree an estimate with the landlord before finalising the bill.' },
    de: { title: 'Wert fehlt: nicht abgerechnet', explanation: 'Zum Ende des Zeitraums liegt für dieses Gerät kein Wert vor; der Verbrauch wurde mit 0 angesetzt. Vor Abschluss der Abrechnung einen Ablesewert beim Messdienst anfordern oder eine Schätzung mit dem Eigentümer abstimmen.' },
  },
  IMPLAUSIBLE_VALUE: {
    en: { title: 'Impossible value from the metering service: not billed', explanation: 'The service sent a value no meter can show for this period: a negative consumption or meter value, an end value below the start value, or a number beyond what a meter can hold (more than 1,000,000,000,000). It is not billed (counted as 0). Ask the metering service to check and correct this device\'s data, then export again; until then agree an estimate with the landlord.' },
    de: { title: 'Unplausibler Wert vom Messdienst: nicht abgerechnet', explanation: 'Der Messdienst hat einen Wert geliefert, den kein Zähler für diesen Zeitraum anzeigen kann: einen negativen Verbrauch oder Zählerstand, einen Endstand unter dem Anfangsstand oder eine Zahl, die größer ist, als ein Zählwerk anzeigen kann (über 1.000.000.000.000). Der Verbrauch wurde mit 0 angesetzt und nicht abgerechnet. Bitte die Gerätedaten beim Messdienst prüfen und berichtigen lassen und danach erneut exportieren; bis dahin eine Schätzung mit dem Eigentümer abstimmen.' },
  },
  IMPLAUSIBLE_SHARE: {
    en: { title: "Impossible share of a shared meter: not billed", explanation: "The service sent a share for this unit outside the possible range (more than 0 up to 1, i.e. more than 0 % up to 100 %), so no part of this meter's consumption can be allocated to the unit from it. It is not billed (counted as 0). Ask the metering service to correct the allocation, then export again." },
    de: { title: 'Unplausibler Anteil an einem gemeinsamen Zähler: nicht abgerechnet', explanation: 'Der Messdienst hat für diese Nutzeinheit einen Anteil außerhalb des möglichen Bereichs geliefert (größer als 0 bis höchstens 1, also über 0 % bis 100 %); danach lässt sich der Verbrauch dieses Zählers der Einheit nicht zuordnen. Der Verbrauch wurde mit 0 angesetzt und nicht abgerechnet. Bitte die Aufteilung beim Messdienst berichtigen lassen und danach erneut exportieren.' },
  },
  WEIGHTED_VALUE_MISMATCH: {
    en: { title: "Weighted value does not match billable value × share: not billed", explanation: "The service's weighted value for this unit differs from the billable value × this unit's share by more than rounding, so one of the two is wrong and either could over- or under-charge the unit. It is not billed (counted as 0). Ask the metering service which value is right, then export again." },
    de: { title: 'Gewichteter Wert passt nicht zu abrechenbarem Wert × Anteil: nicht abgerechnet', explanation: 'Der gewichtete Wert des Messdienstes für diese Nutzeinheit weicht um mehr als eine Rundung vom abrechenbaren Wert × Anteil dieser Einheit ab; einer der beiden Werte ist falsch, die Einheit würde zu viel oder zu wenig belastet. Der Verbrauch wurde mit 0 angesetzt und nicht abgerechnet. Bitte beim Messdienst klären, welcher Wert stimmt, und danach erneut exportieren.' },
  },
  ASSUMED_ZERO_BASELINE: {
    en: { title: 'Start value assumed to be 0', explanation: 'The start value of this replacement heat cost allocator was not recorded and is taken as 0. Its consumption is included in the bill: show it to the landlord and have it confirmed before the bill is sent.' },
    de: { title: 'Anfangswert mit 0 angenommen', explanation: 'Der Anfangswert dieses Ersatz-Heizkostenverteilers wurde nicht erfasst und mit 0 angesetzt. Der Verbrauch ist in der Abrechnung enthalten: bitte dem Eigentümer vorlegen und bestätigen lassen, bevor die Abrechnung versandt wird.' },
  },
  NOT_SYSTEM_LINKED: {
    en: { title: 'Meter not linked to a heating or water system', explanation: 'This meter has no active assignment to a heating or water system. Its values are delivered and included here, while the landlord portal shows 0. Clarify with the landlord whether it belongs in the bill before billing.' },
    de: { title: 'Zähler keiner Heizungs- oder Wasseranlage zugeordnet', explanation: 'Dieser Zähler ist keiner Heizungs- oder Wasseranlage zugeordnet. Die Werte werden geliefert und sind hier enthalten, im Eigentümerportal erscheint jedoch 0. Vor der Abrechnung mit dem Eigentümer klären, ob der Zähler abgerechnet wird.' },
  },
  UNKNOWN_ENUM_VALUE: {
    en: { title: 'Unknown value from the metering service', explanation: 'The service sent a value this version of meterdata does not know. An unknown status is not billed (counted as 0); an unknown metric gets its own row. Check the entry with the metering service and update meterdata.' },
    de: { title: 'Unbekannter Wert vom Messdienst', explanation: 'Der Messdienst hat einen Wert geliefert, den diese Version von meterdata nicht kennt. Ein unbekannter Status wird nicht abgerechnet (mit 0 angesetzt); eine unbekannte Verbrauchsart erhält eine eigene Zeile. Bitte beim Messdienst nachfragen und meterdata aktualisieren.' },
  },
  SHARE_SUM_MISMATCH: {
    en: { title: 'Shares of a shared meter do not add up to 100 %', explanation: 'This meter is shared by several units, but the shares of the units in this export do not sum to 1, so part of its consumption is billed to no one or billed twice. Check the allocation with the landlord (units outside the selected properties also cause this).' },
    de: { title: 'Anteile eines gemeinsamen Zählers ergeben nicht 100 %', explanation: 'Dieser Zähler wird von mehreren Nutzeinheiten geteilt, die Anteile der Einheiten in diesem Export ergeben aber nicht 1. Ein Teil des Verbrauchs wird dadurch niemandem oder doppelt berechnet. Bitte die Aufteilung mit dem Eigentümer prüfen (auch Einheiten außerhalb der freigegebenen Liegenschaften führen dazu).' },
  },
  DATA_GAP: {
    en: { title: 'No data for the period', explanation: 'The meter has no values at all in the requested period, so nothing is billed for it. Request readings from the metering service or agree an estimate with the landlord.' },
    de: { title: 'Keine Daten im Zeitraum', explanation: 'Für diesen Zähler liegen im gewählten Zeitraum keine Werte vor; es wird nichts abgerechnet. Ablesewerte beim Messdienst anfordern oder eine Schätzung mit dem Eigentümer abstimmen.' },
  },
  DIFFERENCE_METER: {
    en: { title: 'Difference meter without own device', explanation: 'This measuring point is a difference meter: it has no device and no values of its own, so nothing is billed for it here. Derive its consumption from the related meters if your allocation needs it.' },
    de: { title: 'Differenzzähler ohne eigenes Gerät', explanation: 'Diese Messstelle ist ein Differenzzähler ohne eigenes Gerät und ohne eigene Werte; hier wird nichts abgerechnet. Den Verbrauch bei Bedarf aus den zugehörigen Zählern ermitteln.' },
  },
  DEVICE_REPLACED: {
    en: { title: 'Device replaced during the period', explanation: 'The device was exchanged; the consumption of the old and the new device is added up, each from its own start value. No action needed unless the values look implausible.' },
    de: { title: 'Gerätetausch im Zeitraum', explanation: 'Das Gerät wurde getauscht; die Verbräuche des alten und des neuen Geräts sind addiert, jeweils ab dem eigenen Anfangswert. Kein Handlungsbedarf, sofern die Werte plausibel sind.' },
  },
  DEVICE_REMOVED: {
    en: { title: 'Device removed without replacement', explanation: 'The device was removed and no new device follows; consumption is billed up to the removal day. Check whether the unit still needs a meter.' },
    de: { title: 'Gerät ohne Ersatz ausgebaut', explanation: 'Das Gerät wurde ausgebaut und nicht ersetzt; der Verbrauch ist bis zum Ausbautag abgerechnet. Prüfen, ob die Nutzeinheit weiterhin einen Zähler benötigt.' },
  },
  SYNTHETIC_VALUE: {
    en: { title: 'Calculated values included', explanation: 'Some month-end values were calculated (interpolated) by the metering service instead of read from the device. They are billed as delivered; mention this if a tenant queries the bill.' },
    de: { title: 'Rechnerisch ermittelte Werte enthalten', explanation: 'Einzelne Monatsendwerte wurden vom Messdienst rechnerisch ermittelt (interpoliert) statt vom Gerät abgelesen. Sie werden wie geliefert abgerechnet; bei Rückfragen von Mietern darauf hinweisen.' },
  },
  WEIGHTED_VALUE_ABSENT: {
    en: { title: "No weighted value sent: billed the billable value × this unit's share", explanation: "The service sent no weighted value for this unit, so meterdata billed the billable value × this unit's share, which is how the contract defines the weighted value (for a meter the unit does not share, the share is 1 and this is the billable value itself). Billing the full billable value would charge a shared meter in full to every unit. No action needed unless the share looks wrong." },
    de: { title: 'Kein gewichteter Wert geliefert: abrechenbarer Wert × Anteil dieser Einheit abgerechnet', explanation: 'Der Messdienst hat für diese Nutzeinheit keinen gewichteten Wert geliefert; meterdata hat den abrechenbaren Wert × Anteil dieser Einheit abgerechnet. So definiert die Schnittstelle den gewichteten Wert (bei einem nicht geteilten Zähler ist der Anteil 1, also der abrechenbare Wert selbst). Den vollen abrechenbaren Wert anzusetzen, würde einen gemeinsamen Zähler jeder Einheit voll berechnen. Kein Handlungsbedarf, sofern der Anteil stimmt.' },
  },
  WATER_OUTDOOR: {
    en: { title: 'Outdoor water kept separate', explanation: 'Outdoor and garden water has its own row and is never added to the water billed to residents. Allocate it as the leases say (e.g. to the landlord or to garden users).' },
    de: { title: 'Außenwasser getrennt ausgewiesen', explanation: 'Außen- und Gartenwasser steht in einer eigenen Zeile und wird nie zum Wasserverbrauch der Bewohner addiert. Bitte nach Mietvertrag zuordnen (z. B. Eigentümer oder Gartennutzer).' },
  },
  UNALLOCATED_POINT: {
    en: { title: 'Meter not allocated to a unit', explanation: 'Plant-room or main meter, listed separately with the plant points. The service does not split it over the units; apply your own allocation key if it is part of the bill.' },
    de: { title: 'Zähler keiner Nutzeinheit zugeordnet', explanation: 'Technikraum- oder Hauptzähler, gesondert bei den Anlagenzählern aufgeführt. Der Messdienst verteilt ihn nicht auf die Nutzeinheiten; bei Bedarf nach eigenem Umlageschlüssel verteilen.' },
  },
  CONSUMPTION_CHANGE: {
    en: { title: 'Consumption changed markedly against the comparison period', explanation: 'The billed consumption differs from the comparison period by more than the review threshold. Check the readings (device exchange, vacancy, change of tenant, leak) before the bill is sent.' },
    de: { title: 'Deutliche Verbrauchsänderung gegenüber dem Vergleichszeitraum', explanation: 'Der abgerechnete Verbrauch weicht stärker als die Prüfschwelle vom Vergleichszeitraum ab. Vor dem Versand die Ablesewerte prüfen (Gerätetausch, Leerstand, Mieterwechsel, Leckage).' },
  },
  COMPARISON_ZERO: {
    en: { title: 'Consumption is 0 in one of the two periods', explanation: 'One period shows consumption and the other shows none. Check for vacancy, a stopped meter or a reading error before billing.' },
    de: { title: 'Verbrauch in einem der beiden Zeiträume 0', explanation: 'In einem Zeitraum wurde Verbrauch erfasst, im anderen keiner. Vor der Abrechnung auf Leerstand, einen stehenden Zähler oder einen Ablesefehler prüfen.' },
  },
  NEW_SINCE_COMPARISON: {
    en: { title: 'No data in the comparison period (new unit or meter)', explanation: 'This unit or meter has no consumption data in the comparison period, so there is nothing to compare with. Confirm with the landlord that it is new and billed from the right date.' },
    de: { title: 'Keine Daten im Vergleichszeitraum (neue Nutzeinheit oder neuer Zähler)', explanation: 'Für diese Nutzeinheit bzw. diesen Zähler liegen im Vergleichszeitraum keine Verbrauchsdaten vor; ein Vergleich ist nicht möglich. Mit dem Eigentümer klären, ob sie neu ist und ab dem richtigen Datum abgerechnet wird.' },
  },
  GONE_SINCE_COMPARISON: {
    en: { title: 'In the comparison period only (removed unit or meter)', explanation: 'This unit or meter had consumption in the comparison period but has no data now. Check whether it was removed, merged or is missing from this export.' },
    de: { title: 'Nur im Vergleichszeitraum vorhanden (entfallene Nutzeinheit oder entfallener Zähler)', explanation: 'Diese Nutzeinheit bzw. dieser Zähler hatte im Vergleichszeitraum Verbrauch, im aktuellen Zeitraum liegen keine Daten vor. Prüfen, ob sie aufgelöst, zusammengelegt wurde oder in diesem Export fehlt.' },
  },
  COMPARISON_NOT_BILLED: {
    en: { title: 'Not compared: one side is not billed', explanation: 'In one of the two periods this figure was not billed (value missing or calibration expired), so it is not compared; it is not treated as 0. Judge the change by hand if needed.' },
    de: { title: 'Kein Vergleich: eine Seite nicht abgerechnet', explanation: 'In einem der beiden Zeiträume wurde dieser Wert nicht abgerechnet (Wert fehlt oder Eichfrist abgelaufen); er wird daher nicht verglichen und nicht als 0 gewertet. Die Veränderung bei Bedarf von Hand beurteilen.' },
  },
  ZERO_CONSUMPTION: {
    en: { title: 'No consumption although a meter was installed all period', explanation: 'A device was installed over the whole period but recorded no consumption. Check for vacancy or a faulty or stopped meter before billing.' },
    de: { title: 'Kein Verbrauch trotz Zähler im gesamten Zeitraum', explanation: 'Ein Gerät war über den gesamten Zeitraum eingebaut, hat aber keinen Verbrauch erfasst. Vor der Abrechnung auf Leerstand oder einen defekten bzw. stehenden Zähler prüfen.' },
  },
  PER_M2_OUTLIER: {
    en: { title: "Consumption per m² far from the Property's median", explanation: "This unit's consumption per square metre lies outside one third to three times the median of comparable units of the Property. Check the readings and the unit's area before billing." },
    de: { title: 'Verbrauch je m² weit vom Median der Liegenschaft entfernt', explanation: 'Der Verbrauch je Quadratmeter dieser Nutzeinheit liegt außerhalb von einem Drittel bis zum Dreifachen des Medians vergleichbarer Nutzeinheiten der Liegenschaft. Vor der Abrechnung Ablesewerte und Wohnfläche prüfen.' },
  },
  CALIBRATION_ENDED: {
    en: { title: 'Calibration period ended before the end of the period', explanation: 'By the statutory calibration period this device had to be replaced before the end of the billed period. Values after that date may not be billed: check with the metering service and arrange the exchange.' },
    de: { title: 'Eichfrist vor Ende des Zeitraums abgelaufen', explanation: 'Nach der gesetzlichen Eichfrist hätte dieses Gerät vor Ende des Abrechnungszeitraums getauscht werden müssen. Werte nach diesem Datum dürfen nicht abgerechnet werden: beim Messdienst nachfragen und den Tausch veranlassen.' },
  },
  CALIBRATION_ENDS_SOON: {
    en: { title: 'Calibration period ends at the end of this period or next year', explanation: 'The statutory calibration period of this device runs out at the end of this period or during the following year. Plan the exchange in time.' },
    de: { title: 'Eichfrist endet zum Ende dieses Zeitraums oder im Folgejahr', explanation: 'Die gesetzliche Eichfrist dieses Geräts läuft zum Ende dieses Zeitraums oder im Folgejahr ab. Den Gerätetausch rechtzeitig einplanen.' },
  },
  CALIBRATION_DATE_UNKNOWN: {
    en: { title: 'Calibration cannot be judged: installation date unknown', explanation: 'The installation date of this device is not documented, so the end of its calibration period cannot be worked out. Ask the metering service for the date.' },
    de: { title: 'Eichfrist nicht beurteilbar: Einbaudatum unbekannt', explanation: 'Das Einbaudatum dieses Geräts ist nicht dokumentiert; das Ende der Eichfrist lässt sich daher nicht bestimmen. Das Datum beim Messdienst erfragen.' },
  },
  ESTIMATED_SHARE_HIGH: {
    en: { title: 'More than 25 % of the consumption is not measured', explanation: 'More than a quarter of the billed consumption of this Property and metric rests on calculated, substituted or assumed values. Under § 9a (2) HeizkostenV, where the estimated units make up more than 25 % of the floor area, the costs must be allocated by the fixed key (e.g. floor area) instead of consumption: check the affected units and areas with the landlord.' },
    de: { title: 'Mehr als 25 % des Verbrauchs nicht gemessen', explanation: 'Mehr als ein Viertel des abgerechneten Verbrauchs dieser Liegenschaft und Verbrauchsart beruht auf errechneten, ersetzten oder angenommenen Werten. Entfallen die geschätzten Nutzeinheiten auf mehr als 25 % der Fläche, sind die Kosten nach § 9a Abs. 2 HeizkostenV nach dem Festkostenmaßstab (z. B. Wohnfläche) statt nach Verbrauch zu verteilen: betroffene Nutzeinheiten und Flächen mit dem Eigentümer klären.' },
  },
};

const FACT_LABELS: Record<string, Record<Lang, string>> = {
  field: { en: 'field', de: 'Feld' },
  value: { en: 'value', de: 'Wert' },
  delivered_value: { en: 'value sent, not billed', de: 'gelieferter Wert, nicht abgerechnet' },
  serial: { en: 'device', de: 'Gerät' },
  baseline_date: { en: 'start date', de: 'Stichtag' },
  segments: { en: 'devices in period', de: 'Geräte im Zeitraum' },
  deinstalled_at: { en: 'removed on', de: 'ausgebaut am' },
  readings: { en: 'calculated readings', de: 'errechnete Werte' },
  unit_share: { en: 'share of this unit', de: 'Anteil dieser Einheit' },
  share_sum: { en: 'sum of shares', de: 'Summe der Anteile' },
  units: { en: 'units', de: 'Einheiten' },
  received: { en: 'received', de: 'geliefert' },
  expected: { en: 'billable value × share', de: 'abrechenbarer Wert × Anteil' },
  baseline_value: { en: 'start value', de: 'Anfangsstand' },
  reading_date: { en: 'reading of', de: 'Ablesewert vom' },
  metric: { en: 'metric', de: 'Verbrauchsart' },
  billed_value: { en: 'billed', de: 'abgerechnet' },
  comparison_value: { en: 'comparison period', de: 'Vergleichszeitraum' },
  change_percent: { en: 'change in %', de: 'Veränderung in %' },
  not_billed_in: { en: 'not billed in', de: 'nicht abgerechnet im' },
  value_per_m2: { en: 'per m²', de: 'je m²' },
  median_per_m2: { en: 'median per m²', de: 'Median je m²' },
  installed_at: { en: 'installed on', de: 'eingebaut am' },
  calibration_end: { en: 'calibration valid until', de: 'geeicht bis' },
  estimated_share: { en: 'share not measured in %', de: 'nicht gemessener Anteil in %' },
};

const SEVERITY_ORDER: Record<Severity, number> = { not_billed: 0, review: 1, info: 2 };

export function flagText(code: FlagCode, lang: Lang): Text {
  return TEXTS[code][lang];
}

/** "title (facts). explanation" — facts in the reader's language, German decimals with a comma. */
export function flagMessage(flag: Flag, lang: Lang): string {
  const { title, explanation } = flagText(flag.code, lang);
  const facts = Object.entries(flag.facts ?? {})
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${FACT_LABELS[k]?.[lang] ?? k}: ${lang === 'de' ? germanFact(v) : v}`);
  return `${title}${facts.length ? ` (${facts.join(', ')})` : ''}. ${explanation}`;
}

/** German decimals with a comma, dates as dd.mm.yyyy; everything else as is. */
function germanFact(v: string): string {
  if (/^-?\d+\.\d+$/.test(v)) return v.replace('.', ',');
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  return date ? `${date[3]}.${date[2]}.${date[1]}` : v;
}

/** review.csv rows: not billed first, then review, then info; within a severity the flags' order. */
export function reviewRows(flags: Flag[], lang: Lang): ReviewRow[] {
  return flags
    .map((f, i) => ({ f, i }))
    .sort((a, b) => SEVERITY_ORDER[a.f.severity] - SEVERITY_ORDER[b.f.severity] || a.i - b.i)
    .map(({ f }) => ({
      severity: f.severity,
      code: f.code,
      property_id: f.property_id,
      usage_unit_id: f.usage_unit_id,
      measuring_point_id: f.measuring_point_id,
      device_id: f.device_id,
      message: flagMessage(f, lang),
    }));
}

/** A flag's facts as [label, value] in the reader's language, for screens that list them. */
export function factPairs(flag: Flag, lang: Lang): [string, string][] {
  return Object.entries(flag.facts ?? {}).map(([k, v]) => [FACT_LABELS[k]?.[lang] ?? k, lang === 'de' ? germanFact(v) : v]);
}
