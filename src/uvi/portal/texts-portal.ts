// Words of the letters' review (review.csv of `uvi`): why a unit gets no letter or an
// incomplete one, so the clerk can act before the letters go out (§ 12 Abs. 1 Satz 3
// HeizkostenV lets the user cut 3 % where the information is missing or incomplete).
import { catalogue } from '../../i18n/index.js';

export const portalTexts = catalogue(
  'uvi-portal',
  {
    heating: 'heating',
    hotWater: 'hot water',
    noLetter: 'No letter: no heat meter, heat cost allocator or hot-water meter of the unit sent values in the 13 months.',
    monthMissing: (p: { service: string; when: string; reasons: string }) => `Letter incomplete: no ${p.service} figure for ${p.when} (${p.reasons}).`,
    monthNoKwh: (p: { service: string; when: string; reasons: string }) =>
      `Letter incomplete: ${p.service} for ${p.when} only in the unit's own figures, not in kWh as § 6a Abs. 2 HeizkostenV asks (${p.reasons}).`,
    noPlantHeatMeter:
      'Letter incomplete: the property has no main heat meter, so heat cost allocator units cannot be given in kWh; add the main heat meter to the metering service.',
    noFloorArea: (p: { service: string }) =>
      `Letter incomplete: no floor area for ${p.service}, so no comparison with the average user; record the area at the metering service.`,
    noBenchmarkForType: (p: { service: string; type: string }) =>
      `Letter incomplete: the benchmark has no average user for units of type "${p.type}" (${p.service}); pass a benchmark file with such a row.`,
    areaImplausible: (p: { service: string; area: string }) =>
      `Letter incomplete: the area for ${p.service} (${p.area} m²) cannot be a usage unit's (below 1 m² or above 10,000 m²), so no comparison with the average user; have the area corrected at the metering service.`,
    pointNotSent: (p: { id: string; metric: string }) =>
      `Check: the property lists meter ${p.id} (${p.metric}) for this unit, but this unit's consumption data do not contain it; without it this unit's figure of that kind and the property's sums over its units are not formed, so these and the figures resting on them are missing. Ask the metering service for the meter's data.`,
    warmWaterHeatNotKnown:
      "Check: the property has allocators but no hot-water heat meter and no hot-water volume; the main heat meter's whole heat was shared as heating heat.",
    plantMeterNameUnclear: (p: { name: string }) =>
      `Check: the plant-room heat meter "${p.name}" names hot water beside a word not known in a hot-water heat meter's name (e.g. heating, radiators, the whole supply, "incl." before hot water), so it was taken as the main heat meter; if it measures hot water only, list it in a --plant-meters file as warm_water_heat or have the metering service name its location so.`,
    plantMeterListedUnknown: (p: { line: string; id: string }) =>
      `Check: line ${p.line} of the --plant-meters file names meter ${p.id}, which this property has not as a plant-room heat meter; its plant-room heat meters were therefore sorted by their names. Correct the line (the ids as in meterdata browse).`,
    warmWaterHeatImplausible: (p: { when: string; perM3: string; max: string }) =>
      `Check: the hot-water heat meter gives ${p.perM3} kWh per m³ of hot water from ${p.when}, more than the ${p.max} kWh/m³ § 9 Abs. 2 HeizkostenV gives at 80 °C from water at 0 °C; hot water was converted by § 9 Abs. 2 instead. Have the metering service check which heat meter measures hot water.`,
    plantHeatMetersSeveral: (p: { count: string; names: string }) =>
      `Check: the plant room has ${p.count} heat meters that are not recognised as the hot-water heat meter (${p.names}); whether one of them measures part of another's heat cannot be told, and added up such a sub-meter would count twice, so heat cost allocator units are not given in kWh. Have the metering service name the location of a hot-water heat meter so (e.g. "WMZ Warmwasser"), or state which meter measures the whole plant.`,
    warmWaterHeatMetersSeveral: (p: { count: string; names: string }) =>
      `Check: the plant room has ${p.count} hot-water heat meters (${p.names}) that measured on the same days; whether one of them measures part of another's heat cannot be told, and added up such a sub-meter would count twice, so hot water was converted by § 9 Abs. 2 HeizkostenV instead. Have the metering service state which meter measures all the heat for hot water.`,
    warmWaterVolumeMetersSeveral: (p: { count: string; names: string }) =>
      `Check: the plant room has ${p.count} hot-water meters (${p.names}) that measured on the same days; whether one of them measures part of another's water cannot be told, and added up such a sub-meter would count twice, so the hot-water volume is the sum of the units' hot-water meters instead (where that is missing, the heat for hot water is not known that month). Have the metering service state which meter measures all the hot water.`,
    fromTo: (p: { from: string; to: string }) => `${p.from} to ${p.to}`,
  },
  {
    heating: 'Heizung',
    hotWater: 'Warmwasser',
    noLetter: 'Kein Schreiben: kein Wärmezähler, Heizkostenverteiler oder Warmwasserzähler der Nutzeinheit hat in den 13 Monaten Werte geliefert.',
    monthMissing: (p) => `Schreiben unvollständig: kein Wert für ${p.service} im ${p.when} (${p.reasons}).`,
    monthNoKwh: (p) =>
      `Schreiben unvollständig: ${p.service} im ${p.when} nur in den eigenen Einheiten der Nutzeinheit, nicht in kWh, wie es § 6a Abs. 2 HeizkostenV verlangt (${p.reasons}).`,
    noPlantHeatMeter:
      'Schreiben unvollständig: die Liegenschaft hat keinen Hauptwärmezähler, daher keine Umrechnung der Einheiten der Heizkostenverteiler in kWh; Hauptwärmezähler beim Messdienst nachtragen lassen.',
    noFloorArea: (p) =>
      `Schreiben unvollständig: keine Fläche für ${p.service}, daher kein Vergleich mit dem Durchschnittsnutzer; Fläche beim Messdienst nachtragen lassen.`,
    noBenchmarkForType: (p) =>
      `Schreiben unvollständig: die Vergleichstabelle hat keinen Durchschnittsnutzer für Nutzeinheiten der Art „${p.type}“ (${p.service}); eine Vergleichstabelle mit dieser Zeile angeben.`,
    areaImplausible: (p) =>
      `Schreiben unvollständig: die Fläche für ${p.service} (${p.area} m²) kann nicht die einer Nutzeinheit sein (unter 1 m² oder über 10.000 m²), daher kein Vergleich mit dem Durchschnittsnutzer; Fläche beim Messdienst berichtigen lassen.`,
    pointNotSent: (p) =>
      `Prüfen: die Liegenschaft führt den Zähler ${p.id} (${p.metric}) für diese Nutzeinheit, ihre Verbrauchsdaten enthalten ihn aber nicht; ohne ihn fehlen der Wert dieser Nutzeinheit für diese Zählerart, die Summen der Liegenschaft über die Nutzeinheiten und die darauf beruhenden Werte. Daten des Zählers beim Messdienst anfordern.`,
    warmWaterHeatNotKnown:
      'Prüfen: die Liegenschaft hat Heizkostenverteiler, aber weder einen Wärmezähler für Warmwasser noch eine Warmwassermenge; die gesamte Wärmemenge des Hauptwärmezählers wurde als Heizwärme verteilt.',
    plantMeterNameUnclear: (p) =>
      `Prüfen: der Wärmezähler der Heizzentrale „${p.name}“ nennt neben Warmwasser ein Wort, das in der Bezeichnung eines Wärmezählers für Warmwasser nicht bekannt ist (etwa Heizung, Heizkörper, die gesamte Versorgung, „inkl.“ vor Warmwasser); er wurde daher als Hauptwärmezähler gewertet. Misst er nur Warmwasser, ihn in einer Datei für --plant-meters als warm_water_heat angeben oder den Einbauort beim Messdienst so benennen lassen.`,
    plantMeterListedUnknown: (p) =>
      `Prüfen: Zeile ${p.line} der Datei für --plant-meters nennt den Zähler ${p.id}, den diese Liegenschaft nicht als Wärmezähler der Heizzentrale führt; ihre Wärmezähler der Heizzentrale wurden daher nach ihrer Bezeichnung zugeordnet. Die Zeile berichtigen (die Kennungen wie in meterdata browse).`,
    warmWaterHeatImplausible: (p) =>
      `Prüfen: der Wärmezähler für Warmwasser zeigt von ${p.when} ${p.perM3} kWh je m³ Warmwasser, mehr als die ${p.max} kWh/m³, die § 9 Abs. 2 HeizkostenV bei 80 °C und Kaltwasser von 0 °C ergibt; Warmwasser wurde deshalb nach § 9 Abs. 2 umgerechnet. Beim Messdienst klären, welcher Wärmezähler das Warmwasser misst.`,
    plantHeatMetersSeveral: (p) =>
      `Prüfen: in der Heizzentrale sind ${p.count} Wärmezähler erfasst, von denen keiner als Wärmezähler für Warmwasser erkennbar ist (${p.names}); ob einer davon einen Teil der Wärme eines anderen misst, lässt sich nicht feststellen, und zusammengezählt würde ein solcher Unterzähler doppelt gerechnet. Die Einheiten der Heizkostenverteiler werden daher nicht in kWh umgerechnet. Den Einbauort eines Wärmezählers für Warmwasser beim Messdienst so benennen lassen (etwa „WMZ Warmwasser“) oder klären, welcher Zähler die gesamte Wärme der Heizzentrale misst.`,
    warmWaterHeatMetersSeveral: (p) =>
      `Prüfen: in der Heizzentrale haben ${p.count} Wärmezähler für Warmwasser an denselben Tagen gemessen (${p.names}); ob einer davon einen Teil der Wärme eines anderen misst, lässt sich nicht feststellen, und zusammengezählt würde ein solcher Unterzähler doppelt gerechnet. Warmwasser wurde deshalb nach § 9 Abs. 2 HeizkostenV umgerechnet. Beim Messdienst klären, welcher Zähler die gesamte Wärme für Warmwasser misst.`,
    warmWaterVolumeMetersSeveral: (p) =>
      `Prüfen: in der Heizzentrale haben ${p.count} Warmwasserzähler an denselben Tagen gemessen (${p.names}); ob einer davon einen Teil des Wassers eines anderen misst, lässt sich nicht feststellen, und zusammengezählt würde ein solcher Unterzähler doppelt gerechnet. Als Warmwassermenge gilt deshalb die Summe der Warmwasserzähler der Nutzeinheiten (fehlt sie, ist die Wärme für Warmwasser in diesem Monat nicht bekannt). Beim Messdienst klären, welcher Zähler das gesamte Warmwasser misst.`,
    fromTo: (p) => `${p.from} bis ${p.to}`,
  },
);
