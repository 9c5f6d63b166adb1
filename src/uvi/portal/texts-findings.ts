// Billing's findings as the monthly information's review.csv words them (findings.ts): the bill's
// words ("not billed", "before the bill is sent") are untrue of a letter, which informs and bills
// nothing (§ 6a HeizkostenV). What the finding is stays billing's title; what it does to the letters
// and what to do are said here.
import { catalogue } from '../../i18n/index.js';

export const uviFindingTexts = catalogue(
  'uvi-findings',
  {
    /** Replaces billing's ": not billed" at the end of a refused meter's title. */
    notUsed: 'not used in the monthly information',
    /** Titles whose words beyond the suffix are the bill's. */
    SEGMENT_OUTSIDE_RANGE: 'Device not installed in the 13 months: not used in the monthly information',
    refusedUnitMeter:
      "The monthly information does not use this meter's values: in all 13 months the letter has no figure of this unit for this kind of consumption (shown as –, never as 0), and neither the Property's sums the meter is part of (such as the sum of the heat cost allocator units) nor the figures resting on them are formed. Have the metering service check and correct the meter's data, then run meterdata uvi again.",
    refusedPlantMeter:
      "The monthly information does not use this main meter's values: in all 13 months the figures resting on it (such as heat cost allocator units converted to kWh, or the heat for hot water) are missing in the letters (shown as –, never as 0). Have the metering service check and correct the meter's data, then run meterdata uvi again.",
    ASSUMED_ZERO_BASELINE:
      'The start value of this replacement heat cost allocator was not recorded and is taken as 0; the letter counts its consumption from 0 and marks the month of its installation as estimated. Show it to the landlord and have it confirmed before the letters are sent.',
    NOT_SYSTEM_LINKED:
      "This meter has no active assignment to a heating or water system. Its values are delivered and included in the letter and in the Property's sums, while the landlord portal shows 0. Clarify with the landlord whether the meter belongs to this unit before the letters are sent.",
    UNKNOWN_ENUM_VALUE:
      'The service sent a value this version of meterdata does not know. A month-end reading of an unknown status gives its month no figure, a meter of an unknown kind is in no figure of the letters, and a start value of unknown origin marks its month as estimated. Check the entry with the metering service and update meterdata.',
    SHARE_SUM_MISMATCH:
      "This meter is shared by several units, but the shares of the units in this run add up to less than 1, so part of its consumption belongs to no unit here: the Property's sum of this kind of meter is not formed, and the figures resting on it are missing in the letters. Check the allocation with the landlord (units outside the selected Properties also cause this).",
    READING_NOT_IN_SERIES:
      "The service sent a reading of this device dated at none of the month ends of the 13 months (between two month ends, or outside them), although the interface gives one reading per month end and no other. The monthly information takes no month from it: where it stands in place of a month end's reading, the months on either side of that month end have no figure of this meter (shown as –, never as 0; in uvi.csv as no_reading). Its value still counts as one of the device's: below an earlier count, the meter's register would run backwards, and the meter is not used at all (REGISTER_BACKWARDS). Point the metering service to the reading's date, then run meterdata uvi again.",
  },
  {
    notUsed: 'nicht in die Verbrauchsinformation übernommen',
    SEGMENT_OUTSIDE_RANGE: 'Zähler in den 13 Monaten nicht eingebaut: nicht in die Verbrauchsinformation übernommen',
    refusedUnitMeter:
      'Die Werte dieses Zählers werden für die Verbrauchsinformation nicht verwendet: In allen 13 Monaten fehlt im Schreiben der Wert dieser Nutzeinheit für diese Verbrauchsart (angezeigt als –, nie als 0), und weder die Summen der Liegenschaft, in die der Zähler eingeht (etwa die Summe der Einheiten der Heizkostenverteiler), noch die darauf beruhenden Werte werden gebildet. Bitte die Daten des Zählers vom Messdienst prüfen und berichtigen lassen und danach meterdata uvi erneut ausführen.',
    refusedPlantMeter:
      'Die Werte dieses Hauptzählers werden für die Verbrauchsinformation nicht verwendet: In allen 13 Monaten fehlen in den Schreiben die darauf beruhenden Werte (etwa die in kWh umgerechneten Einheiten der Heizkostenverteiler oder die Wärme für Warmwasser; angezeigt als –, nie als 0). Bitte die Daten des Zählers vom Messdienst prüfen und berichtigen lassen und danach meterdata uvi erneut ausführen.',
    ASSUMED_ZERO_BASELINE:
      'Der Anfangsstand dieses nach einem Gerätetausch eingebauten Heizkostenverteilers wurde nicht erfasst und mit 0 angesetzt; das Schreiben zählt seinen Verbrauch ab 0 und kennzeichnet den Monat des Einbaus als geschätzt. Bitte vor dem Versand der Schreiben dem Eigentümer vorlegen und bestätigen lassen.',
    NOT_SYSTEM_LINKED:
      'Dieser Zähler ist keiner Heizungs- oder Wasseranlage zugeordnet. Seine Werte werden geliefert und sind im Schreiben und in den Summen der Liegenschaft enthalten, im Eigentümerportal erscheint jedoch 0. Vor dem Versand der Schreiben mit dem Eigentümer klären, ob der Zähler zu dieser Nutzeinheit gehört.',
    UNKNOWN_ENUM_VALUE:
      'Der Messdienst hat einen Wert geliefert, den diese Version von meterdata nicht kennt. Ein Ablesewert zum Monatsende mit unbekanntem Status ergibt für seinen Monat keinen Wert, ein Zähler unbekannter Art geht in keinen Wert der Schreiben ein, und ein Anfangsstand unbekannter Herkunft kennzeichnet seinen Monat als geschätzt. Bitte beim Messdienst nachfragen und meterdata aktualisieren.',
    SHARE_SUM_MISMATCH:
      'Dieser Zähler wird von mehreren Nutzeinheiten geteilt, die Anteile der Nutzeinheiten in diesem Lauf ergeben aber weniger als 1; ein Teil seines Verbrauchs gehört hier keiner Nutzeinheit: Die Summe der Liegenschaft für diese Zählerart wird nicht gebildet, die darauf beruhenden Werte fehlen in den Schreiben. Bitte die Aufteilung mit dem Eigentümer prüfen (auch Nutzeinheiten außerhalb der freigegebenen Liegenschaften führen dazu).',
    READING_NOT_IN_SERIES:
      'Der Messdienst hat für dieses Gerät einen Ablesewert geliefert, der auf keines der Monatsenden der 13 Monate datiert ist (zwischen zwei Monatsenden oder außerhalb davon), obwohl die Schnittstelle nur einen Ablesewert je Monatsende liefert. Die Verbrauchsinformation bildet keinen Monat daraus: Steht er anstelle des Ablesewerts zu einem Monatsende, fehlt für die beiden Monate an diesem Monatsende der Wert dieses Zählers (im Schreiben als –, nie als 0; in uvi.csv als no_reading). Sein Wert zählt dennoch als Zählerstand des Geräts: Liegt er unter einem früheren, liefe das Zählwerk rückwärts, und der Zähler wird gar nicht verwendet (REGISTER_BACKWARDS). Bitte den Messdienst auf das Datum des Ablesewerts hinweisen und danach meterdata uvi erneut ausführen.',
  },
);
