// What each flag means to an accountant and what to do, in both languages (the titles: texts-findings.ts).
import { catalogue } from '../i18n/index.js';
import type { FlagCode } from './types.js';

export const flagExplanations = catalogue(
  'flag-explanations',
  {
    CALIBRATION_EXPIRED:
      "The device's calibration period had ended, so its consumption for this period is not billed (counted as 0). Arrange for the device to be replaced and agree with the landlord how this consumption is allocated (e.g. an estimate).",
    MISSING_VALUE:
      'No value was delivered for the end of the period, so this device is counted as 0. Request a reading from the metering service or agree an estimate with the landlord before finalising the bill.',
    IMPLAUSIBLE_VALUE:
      "The service sent a value no meter can show for this period: a negative consumption or meter value, an end value below the start value, a K-factor of 0 or below, or a number beyond what a meter can hold (more than 1,000,000,000,000). It is not billed (counted as 0). Ask the metering service to check and correct this device's data, then export again; until then agree an estimate with the landlord.",
    IMPLAUSIBLE_SHARE:
      "The service sent a share for this unit outside the possible range (more than 0 up to 1, i.e. more than 0 % up to 100 %), so no part of this meter's consumption can be allocated to the unit from it. It is not billed (counted as 0). Ask the metering service to correct the allocation, then export again.",
    REGISTER_BACKWARDS:
      "A heat or water meter only counts up, but this device shows a lower value after a higher one: a month-end reading below its start value or an earlier reading, or an end value below its last reading. Such values cannot all be the device's own, so even a plausible-looking consumption (end value minus start value) may be wrong. It is not billed (counted as 0). Ask the metering service to check the device's readings, then export again. Heat cost allocators are not checked this way, since an electronic allocator starts again from 0 on its reading date.",
    WEIGHTED_VALUE_MISMATCH:
      "The service's weighted value for this unit differs from the billable value × this unit's share by more than rounding, so one of the two is wrong and either could over- or under-charge the unit. It is not billed (counted as 0). Ask the metering service which value is right, then export again.",
    BILLABLE_VALUE_DIFFERS:
      "The billable value the service sent for this device differs by more than rounding from its end value minus its start value, times its K-factor. meterdata bills the service's value, as the interface asks, but one of these figures is wrong, so the bill may be too high or too low. Ask the metering service which is right before the bill goes out.",
    SEGMENTS_OVERLAP:
      "The service sent devices for this meter whose installation periods overlap (or one whose period lies outside the billing period or ends before it starts), although a meter holds one device at a time. Adding them up would bill the same consumption more than once, so none of this meter's consumption is billed (counted as 0). Ask the metering service which device was installed when, then export again.",
    DEVICE_REPEATED:
      "The service sent the same device more than once for this meter. Adding the copies up would bill its consumption several times, so none of this meter's consumption is billed (counted as 0). Ask the metering service to correct the data, then export again.",
    READING_REPEATED:
      "The service sent more than one reading for the same month end of this device, so it is unclear which is right. None of this meter's consumption is billed (counted as 0). Ask the metering service which reading is right, then export again.",
    READING_OUTSIDE_WINDOW:
      "The service sent a reading of this device dated before its installation or after its removal. A device cannot be read while it is not installed, so its dates or readings are wrong, and adding up the meter's devices could bill part of the period twice (for instance a device copied under a new installation date). None of this meter's consumption is billed (counted as 0). Ask the metering service to correct the data, then export again.",
    SEGMENT_OUTSIDE_RANGE:
      "The service sent consumption of a device that, by its own installation and removal dates, was not installed at any time in the billing period (removed before it began, installed after it ended, or removed before it was installed). Its value cannot be this period's consumption, so none of this meter's consumption is billed (counted as 0). Ask the metering service which device was installed when, then export again.",
    POINT_REPEATED:
      "The service listed this meter more than once in the unit's consumption. Adding the copies up would bill it several times, so none of them is billed for this unit (counted as 0). Ask the metering service to correct the data, then export again.",
    POINT_NOT_LISTED:
      "The service sent consumption for a meter that the lists of measuring points do not name for this unit (the Property lists it for other units only, or as a plant-room or main meter, which is never billed to a unit, or not at all), so it cannot be checked that the meter belongs to this unit. It is not billed (counted as 0) and not counted in the billing row's points. Ask the metering service and the landlord whether the meter belongs to the unit, then export again.",
    LISTED_POINT_NOT_SENT:
      "The Property's list of measuring points (or the unit's own list of its meters) gives this meter to the unit, but the unit's consumption answer does not contain it. Billed without it, the unit's figure for this kind of consumption would be too low without anyone noticing, so the meter is counted as 0 and the billing row carries this finding: the row is not complete and must not be billed as it is. Ask the metering service for the meter's consumption, then export again.",
    LISTED_DEVICE_NOT_SENT:
      "The Property's list of measuring points shows this device installed at the meter by the end of the billing period (a new device after a replacement, for instance), but the consumption answer has no values of it: the period's consumption would be short of everything the device measured. None of this meter's consumption is billed (counted as 0). Ask the metering service for the device's values, then export again.",
    DEVICE_NOT_AS_LISTED:
      "The consumption answer gives the device the Property's list of measuring points shows as this meter's current device another installation day, removal day or K-factor than the list (the field and both values are named here). Each of these changes the billed figure: a removal day frees the end value, an installation day inside the period drops the start value, and the factor multiplies the consumption. Since meterdata cannot tell which of the two is right, none of this meter's consumption is billed (counted as 0). An installation day is compared only where both give one, because the contract allows an undocumented day to be left empty; a removal day in the answer contradicts a list that shows the device still installed. Ask the metering service to correct the device's data, then export again.",
    DIFFERENCE_NOT_AS_LISTED:
      "The consumption answer sends this meter as a difference meter (no device, no values) while the Property's list of measuring points shows a metered meter, or the other way round. Billed as sent, a metered meter would count as 0, or a difference meter would be billed with values it cannot have. None of this meter's consumption is billed (counted as 0). Ask the metering service which is right, then export again.",
    UNIT_NOT_IN_LIST:
      "The Property's list of measuring points gives meters to a unit (its id is named here) that the Property's list of units does not contain, so meterdata fetched no consumption for it and it has no row in the billing sheet. Nothing is billed to it; the other units are billed as usual. Ask the metering service whether the unit belongs to the Property, then export again.",
    UNITS_FEWER_THAN_COUNT:
      'The Property states more units than its list of units contains (both numbers are named here), so units may be missing from the billing sheet without a row. Nothing is billed to a unit that is not listed; the listed units are billed as usual. Ask the metering service which units are missing (a unit added during the export is counted too), then export again.',
    SHARE_NOT_AS_LISTED:
      "The service sent this unit's share of a shared meter differently from the share the Property's list of measuring points gives the unit. Both are the same unit's part of the meter, so one of them is wrong; shares moved between units still add up to 100 %, so the share check alone would not notice. The meter is not billed to this unit (counted as 0). Ask the metering service which allocation is right, then export again.",
    METRIC_NOT_AS_LISTED:
      "The service sent this meter's consumption as another kind of consumption or in another unit than the Property's list of measuring points gives for it (for instance a heat meter in kWh sent as cold water in m³). Added to that row, its figures would be billed as something they are not, so it is not billed (counted as 0). Ask the metering service what the meter measures, then export again.",
    COPIES_DISAGREE:
      "This meter is shared by several units, and the service sent it differently in their consumption answers: other devices, other installation dates, or other readings or billable values. It is one meter, so only the units' shares may differ; one of the copies is wrong, and billing each unit from its own copy could bill a consumption the meter never had. It is not billed in any of these units (counted as 0). Ask the metering service which values are right, then export again.",
    DEVICE_AT_TWO_POINTS:
      "The service sent the same device (the same device id) under this meter and under another one (named here, with its units, or the plant-room and main meters) with installation periods that overlap. A device hangs at one place at a time, so one of the two is wrong, and billing both would bill the device's consumption twice. Neither meter is billed (counted as 0; a plant-room or main meter with 0 in plant-points.csv). A device moved from one meter to the other on a date, with periods that do not overlap, is not affected. Ask the metering service where the device was installed, then export again.",
    PLANT_POINT_ALLOCATED:
      "The Property's list of measuring points gives this meter no unit, as a plant-room or main meter, and at the same time splits it over units with their shares. A plant-room or main meter is never split by the service, so one of the two is wrong, and billing it both ways (to the units at their shares and again in plant-points.csv, where you would apply your own allocation key) would bill its consumption twice. It is billed nowhere (counted as 0 in each unit, not in plant-points.csv). Ask the metering service whether the meter belongs to the units, then export again.",
    PLANT_POINT_IN_UNITS:
      "The Property's list of measuring points gives this meter neither a unit nor a split over units, so it is read as a plant-room or main meter (plant-points.csv), yet a unit's consumption answer carries it too. Billing it both ways (to the unit and again in plant-points.csv, where you would apply your own allocation key) would bill its consumption twice. It is billed nowhere (counted as 0 in each unit, not in plant-points.csv). Ask the metering service whether the meter belongs to the units, then export again.",
    CONTRADICTORY_VALUES:
      'The service marks this meter as a difference meter (no device and no values of its own) or as having no data at all in the period, yet sent device values to bill. The answer contradicts itself, so none of them is billed (counted as 0). Ask the metering service which is right, then export again.',
    READINGS_MISSING:
      "The service sent a value to bill for this device, but not its reading at the last month end it was installed in the billing period (the end of the period, or the last month end before its removal), although the interface gives one reading per month end. The value stands on no reading of this period (it may be another period's, or rest on a value between two month ends), so none of this meter's consumption is billed (counted as 0). Ask the metering service for the device's month-end readings, then export again.",
    END_VALUE_NOT_AS_READ:
      "The end value the service sent for this device differs from the device's own reading of the same day: the last month end of the billing period, or the month end on which the device was removed. By the interface the end value is that reading, so the consumption cannot be right, and none of this meter's consumption is billed (counted as 0). Ask the metering service which value is right, then export again.",
    ASSUMED_ZERO_BASELINE:
      'The start value of this replacement heat cost allocator was not recorded and is taken as 0. Its consumption is included in the bill: show it to the landlord and have it confirmed before the bill is sent.',
    NOT_SYSTEM_LINKED:
      'This meter has no active assignment to a heating or water system. Its values are delivered and included here, while the landlord portal shows 0. Clarify with the landlord whether it belongs in the bill before billing.',
    UNKNOWN_ENUM_VALUE:
      'The service sent a value this version of meterdata does not know. An unknown status is not billed (counted as 0); an unknown metric gets its own row. Check the entry with the metering service and update meterdata.',
    SHARE_SUM_MISMATCH:
      'This meter is shared by several units, but the shares of the units in this export sum to less than 1, so part of its consumption is billed to no one. Check the allocation with the landlord (units outside the selected properties also cause this).',
    SHARE_SUM_ABOVE_ONE:
      'This meter is shared by several units, but the shares of the units in this export sum to more than 1: billed at these shares, the units together would pay for more than the meter measured. It is not billed in any of these units (counted as 0). Ask the metering service or the landlord which allocation is right, then export again.',
    DATA_GAP:
      'The meter has no values at all in the requested period, so nothing is billed for it. Request readings from the metering service or agree an estimate with the landlord.',
    DIFFERENCE_METER:
      'This measuring point is a difference meter: it has no device and no values of its own, so nothing is billed for it here. Derive its consumption from the related meters if your allocation needs it.',
    DEVICE_GAP:
      "Between the removal of one device and the installation of the next, or where its installation is not documented its first known value (dates given), no device measured this meter's consumption, though the meter's water, gas or electricity may well have gone on being used. The value billed covers only the days a device was installed, adding up the old and the new device. Check with the landlord and the metering service why no device was installed and agree an estimate for these days before the bill is sent.",
    START_VALUE_LATE:
      "This device's start value (the meter reading its consumption is counted from) was taken only on the start date given, after the device was installed (or after its predecessor was removed, or, where the installation is not documented, after the period began). Whatever was used on the days before it (dates given) is in no device's figure: the value billed covers only the days from the start value on. Ask the metering service for a reading on the installation day; otherwise agree an estimate for these days with the landlord before the bill is sent.",
    DEVICE_REPLACED:
      'The device was exchanged; the consumption of the old and the new device is added up, each from its own start value. No action needed unless the values look implausible.',
    DEVICE_REMOVED:
      'The device was removed and no new device follows; consumption is billed up to the removal day. Check whether the unit still needs a meter.',
    SYNTHETIC_VALUE:
      'Some month-end values were calculated (interpolated) by the metering service instead of read from the device. They are billed as delivered; mention this if a tenant queries the bill.',
    WEIGHTED_VALUE_ABSENT:
      "The service sent no weighted value for this unit, so meterdata billed the billable value × this unit's share, which is how the contract defines the weighted value (for a meter the unit does not share, the share is 1 and this is the billable value itself). Billing the full billable value would charge a shared meter in full to every unit. No action needed unless the share looks wrong.",
    READING_NOT_IN_SERIES:
      "The service sent a reading of this device dated at none of the month ends of the period asked for (between two month ends, or outside the period), although the interface gives one reading per month end of the period and no other. The value billed rests on the readings at the end of the period (and at the device's removal); the reading changes it only where its value lies below an earlier count of the device (the register would run backwards: REGISTER_BACKWARDS, not billed). readings.csv lists the reading as sent. Point the metering service to the reading's date.",
    WATER_OUTDOOR:
      'Outdoor and garden water has its own row and is never added to the water billed to residents. Allocate it as the leases say (e.g. to the landlord or to garden users).',
    UNALLOCATED_POINT:
      'Plant-room or main meter, listed separately with the plant points. The service does not split it over the units; apply your own allocation key if it is part of the bill.',
    CONSUMPTION_CHANGE:
      'The billed consumption differs from the comparison period by more than the review threshold. Check the readings (device exchange, vacancy, change of tenant, leak) before the bill is sent.',
    COMPARISON_ZERO: 'One period shows consumption and the other shows none. Check for vacancy, a stopped meter or a reading error before billing.',
    NEW_SINCE_COMPARISON:
      'This unit or meter has no consumption data in the comparison period, so there is nothing to compare with. Confirm with the landlord that it is new and billed from the right date.',
    GONE_SINCE_COMPARISON:
      'This unit or meter had consumption in the comparison period but has no data now. Check whether it was removed, merged or is missing from this export.',
    COMPARISON_NOT_BILLED:
      "In one of the two periods this figure was not billed, or not all of it: a value missing, the calibration expired, or an answer meterdata does not bill (in the comparison period for instance a meter only that period's answers name, which the Property's current list of measuring points no longer lists because it was removed since). So it is not compared, and not treated as 0. Judge the change by hand if needed.",
    COMPARISON_OTHER_LENGTH:
      "This Property has no units of its own and is billed for the months the service answered for the Properties before it; its comparison period (fetched for the period this computer's clock expected, or an earlier export folder) covers another number of months. A comparison of, say, 10 months with 11 would show every figure as changed, so its plant-room and main meters are not compared. Judge their consumption by hand, or export again once the service answers the full period.",
    ZERO_CONSUMPTION:
      'A device was installed over the whole period but recorded no consumption. Check for vacancy or a faulty or stopped meter before billing.',
    PER_M2_OUTLIER:
      "This unit's consumption per square metre lies outside one third to three times the median of comparable units of the Property. Check the readings and the unit's area before billing.",
    CALIBRATION_ENDED:
      "The API does not give the year the device was calibrated, so the end of its calibration period is estimated from its installation date (MessEV Anlage 7, ending on 31 December by § 34 MessEV). By that estimate it ended before the end of the billed period, but the metering service has not marked the values as calibration expired, so they are billed as delivered. Ask the metering company for the calibration year on the device's seal and whether the device was exchanged or re-calibrated since; if the period did end, agree with the landlord how this consumption is allocated before the bill is sent.",
    CALIBRATION_ENDS_SOON:
      'Estimated from the installation date (the API does not give the calibration year), the calibration period of this device runs out at the end of this period or during the following year; it covered the billed period. Plan the exchange in time and confirm the calibration year with the metering company.',
    CALIBRATION_DATE_UNKNOWN:
      'The installation date of this device is not documented, so the end of its calibration period cannot be worked out. Ask the metering service for the date.',
    ESTIMATED_SHARE_HIGH:
      "More than a quarter of the billed consumption of this Property and metric rests on calculated, substituted or assumed values. Check the affected units' readings with the metering service before billing.",
    ESTIMATED_AREA_HIGH:
      'The units whose consumption had to be estimated (calculated or substituted values, values not billed, or no data) make up more than 25 % of the floor area the costs of this cost group are distributed over. Under § 9a (2) HeizkostenV the costs must then be distributed solely by the fixed keys used for the remaining costs (§ 7 (1) sentence 5 and § 8 (1): floor area or enclosed space), not by consumption. Check the estimated units with the landlord and the metering service before the bill is prepared.',
    ESTIMATED_AREA_UNKNOWN:
      'Some units of this cost group have no floor area recorded (those named), so whether the units whose consumption had to be estimated make up more than 25 % of the area under § 9a (2) HeizkostenV cannot be worked out; above 25 % the costs go solely by the fixed keys. Ask the landlord for the areas of the units named.',
    UNIT_REF_MISSING:
      'The --unit-refs file has no line for this unit, so its erp_ref column is empty and an ERP import cannot book it. Add a line with its usage_unit_id and ERP number to the file and export again.',
    UNIT_REF_UNKNOWN:
      'The --unit-refs file names a unit id that is not in this export (another Property, a unit that no longer exists, or a mistyped id). Nothing is billed to it. Check the line: if the id is mistyped, the intended unit is listed without an ERP reference.',
    UNIT_REF_SHARED:
      'The --unit-refs file gives this ERP number to more than one unit, so an ERP import books their consumption together. Correct the file if this is a mistake; leave it if the ERP deliberately keeps these units as one.',
  } satisfies Record<FlagCode, string>,
  {
    CALIBRATION_EXPIRED:
      'Die Eichfrist des Geräts war abgelaufen; der Verbrauch für diesen Zeitraum wurde mit 0 angesetzt und nicht abgerechnet. Bitte den Gerätetausch veranlassen und mit dem Eigentümer klären, wie der Verbrauch verteilt wird (z. B. eine Schätzung).',
    MISSING_VALUE:
      'Zum Ende des Zeitraums liegt für dieses Gerät kein Wert vor; der Verbrauch wurde mit 0 angesetzt. Vor Abschluss der Abrechnung einen Ablesewert beim Messdienst anfordern oder eine Schätzung mit dem Eigentümer abstimmen.',
    IMPLAUSIBLE_VALUE:
      'Der Messdienst hat einen Wert geliefert, den kein Zähler für diesen Zeitraum anzeigen kann: einen negativen Verbrauch oder Zählerstand, einen Endstand unter dem Anfangsstand, einen Bewertungsfaktor (K-Faktor) von 0 oder darunter oder eine Zahl, die größer ist, als ein Zählwerk anzeigen kann (über 1.000.000.000.000). Der Verbrauch wurde mit 0 angesetzt und nicht abgerechnet. Bitte die Gerätedaten beim Messdienst prüfen und berichtigen lassen und danach erneut exportieren; bis dahin eine Schätzung mit dem Eigentümer abstimmen.',
    IMPLAUSIBLE_SHARE:
      'Der Messdienst hat für diese Nutzeinheit einen Anteil außerhalb des möglichen Bereichs geliefert (größer als 0 bis höchstens 1, also über 0 % bis 100 %); danach lässt sich der Verbrauch dieses Zählers der Einheit nicht zuordnen. Der Verbrauch wurde mit 0 angesetzt und nicht abgerechnet. Bitte die Aufteilung beim Messdienst berichtigen lassen und danach erneut exportieren.',
    REGISTER_BACKWARDS:
      'Ein Wärme- oder Wasserzähler zählt nur vorwärts; dieses Gerät zeigt aber nach einem höheren Stand einen niedrigeren: einen Monatsablesewert unter dem Anfangsstand oder einem früheren Ablesewert, oder einen Endstand unter dem letzten Ablesewert. Diese Stände können nicht alle vom selben Zähler stammen; auch ein unauffälliger Verbrauch (Endstand minus Anfangsstand) kann daher falsch sein. Der Verbrauch wurde mit 0 angesetzt und nicht abgerechnet. Bitte die Ablesewerte beim Messdienst prüfen lassen und danach erneut exportieren. Heizkostenverteiler werden so nicht geprüft: Ein elektronischer Heizkostenverteiler beginnt am Stichtag wieder bei 0.',
    WEIGHTED_VALUE_MISMATCH:
      'Der gewichtete Wert des Messdienstes für diese Nutzeinheit weicht um mehr als eine Rundung vom abrechenbaren Wert × Anteil dieser Einheit ab; einer der beiden Werte ist falsch, die Einheit würde zu viel oder zu wenig belastet. Der Verbrauch wurde mit 0 angesetzt und nicht abgerechnet. Bitte beim Messdienst klären, welcher Wert stimmt, und danach erneut exportieren.',
    BILLABLE_VALUE_DIFFERS:
      'Der abrechenbare Wert, den der Messdienst für dieses Gerät geliefert hat, weicht um mehr als eine Rundung von Endstand minus Anfangsstand mal Bewertungsfaktor ab. meterdata rechnet wie von der Schnittstelle vorgesehen den Wert des Messdienstes ab; eine der Angaben ist aber falsch, die Abrechnung kann also zu hoch oder zu niedrig sein. Bitte vor dem Versand der Abrechnung beim Messdienst klären, welcher Wert stimmt.',
    SEGMENTS_OVERLAP:
      'Der Messdienst hat für diese Messstelle Geräte mit sich überschneidenden Einbauzeiträumen geliefert (oder eines, dessen Einbauzeitraum außerhalb des Abrechnungszeitraums liegt oder vor seinem Beginn endet), obwohl an einer Messstelle immer nur ein Zähler eingebaut ist. Die Verbräuche zu addieren, würde denselben Verbrauch mehrfach abrechnen; der Verbrauch dieser Messstelle wurde daher mit 0 angesetzt und nicht abgerechnet. Bitte beim Messdienst klären, welcher Zähler wann eingebaut war, und danach erneut exportieren.',
    DEVICE_REPEATED:
      'Der Messdienst hat dasselbe Gerät für diese Messstelle mehrfach geliefert. Die Kopien zu addieren, würde den Verbrauch mehrfach abrechnen; der Verbrauch dieser Messstelle wurde daher mit 0 angesetzt und nicht abgerechnet. Bitte die Daten beim Messdienst berichtigen lassen und danach erneut exportieren.',
    READING_REPEATED:
      'Der Messdienst hat für dasselbe Monatsende dieses Geräts mehr als einen Ablesewert geliefert; welcher stimmt, ist unklar. Der Verbrauch dieser Messstelle wurde mit 0 angesetzt und nicht abgerechnet. Bitte beim Messdienst klären, welcher Ablesewert stimmt, und danach erneut exportieren.',
    READING_OUTSIDE_WINDOW:
      'Der Messdienst hat für dieses Gerät einen Ablesewert geliefert, der vor dem Einbau oder nach dem Ausbau liegt. Ein nicht eingebautes Gerät kann nicht abgelesen werden; Einbaudaten oder Ablesewerte sind also fehlerhaft, und die Geräte der Messstelle zu addieren, könnte einen Teil des Zeitraums doppelt abrechnen (etwa bei einem mit neuem Einbaudatum kopierten Gerät). Der Verbrauch dieser Messstelle wurde daher mit 0 angesetzt und nicht abgerechnet. Bitte die Daten beim Messdienst berichtigen lassen und danach erneut exportieren.',
    SEGMENT_OUTSIDE_RANGE:
      'Der Messdienst hat Verbrauch eines Zählers geliefert, der nach seinen eigenen Ein- und Ausbaudaten zu keiner Zeit im Abrechnungszeitraum eingebaut war (vor dessen Beginn ausgebaut, nach dessen Ende eingebaut oder vor dem Einbau ausgebaut). Dieser Wert kann nicht der Verbrauch des Abrechnungszeitraums sein; der Verbrauch dieser Messstelle wurde daher mit 0 angesetzt und nicht abgerechnet. Bitte beim Messdienst klären, welcher Zähler wann eingebaut war, und danach erneut exportieren.',
    POINT_REPEATED:
      'Der Messdienst hat diese Messstelle mehrfach im Verbrauch der Nutzeinheit aufgeführt. Die Kopien zu addieren, würde mehrfach abrechnen; keine davon wurde dieser Nutzeinheit berechnet (mit 0 angesetzt). Bitte die Daten beim Messdienst berichtigen lassen und danach erneut exportieren.',
    POINT_NOT_LISTED:
      'Der Messdienst hat Verbrauch für eine Messstelle geliefert, die das Messstellenverzeichnis nicht für diese Nutzeinheit führt (die Liegenschaft führt sie nur für andere Nutzeinheiten, als Technikraum- oder Hauptzähler, der nie einer Nutzeinheit berechnet wird, oder gar nicht); ob der Zähler zu dieser Nutzeinheit gehört, lässt sich nicht prüfen. Er wurde mit 0 angesetzt, nicht abgerechnet und in der Abrechnungszeile nicht mitgezählt. Bitte mit Messdienst und Eigentümer klären, ob der Zähler zur Nutzeinheit gehört, und danach erneut exportieren.',
    LISTED_POINT_NOT_SENT:
      'Das Messstellenverzeichnis der Liegenschaft (oder die Zählerliste der Nutzeinheit) ordnet diese Messstelle der Nutzeinheit zu, in den gelieferten Verbrauchsdaten der Nutzeinheit fehlt sie jedoch. Ohne sie wäre der Verbrauch der Nutzeinheit für diese Verbrauchsart unbemerkt zu niedrig. Die Messstelle wurde mit 0 angesetzt, die Abrechnungszeile trägt diesen Hinweis: Sie ist unvollständig und darf so nicht abgerechnet werden. Bitte den Verbrauch der Messstelle beim Messdienst anfordern und danach erneut exportieren.',
    LISTED_DEVICE_NOT_SENT:
      'Laut Messstellenverzeichnis ist dieses Gerät bis zum Ende des Abrechnungszeitraums an der Messstelle eingebaut worden (etwa das neue Gerät nach einem Gerätetausch), die Verbrauchsdaten enthalten aber keine Werte von ihm. Der Verbrauch des Zeitraums wäre um alles zu niedrig, was das Gerät gemessen hat. Der Verbrauch dieser Messstelle wurde mit 0 angesetzt und nicht abgerechnet. Bitte die Werte des Geräts beim Messdienst anfordern und danach erneut exportieren.',
    DEVICE_NOT_AS_LISTED:
      'Die Verbrauchsdaten geben für das Gerät, das laut Messstellenverzeichnis derzeit an dieser Messstelle eingebaut ist, ein anderes Einbaudatum, Ausbaudatum oder einen anderen Umrechnungsfaktor (K-Faktor) an als das Verzeichnis (Feld und beide Werte sind genannt). Jede dieser Angaben verändert den abgerechneten Verbrauch: Ein Ausbaudatum löst den Endstand vom Ablesewert, ein Einbaudatum im Abrechnungszeitraum lässt den Anfangsstand entfallen, der Faktor vervielfacht den Verbrauch. Da nicht feststeht, welche Angabe stimmt, wurde der Verbrauch dieser Messstelle mit 0 angesetzt und nicht abgerechnet. Ein Einbaudatum wird nur verglichen, wenn beide eines nennen, denn ein nicht dokumentiertes Datum darf fehlen; ein Ausbaudatum widerspricht einem Verzeichnis, das das Gerät als weiterhin eingebaut führt. Bitte die Gerätedaten beim Messdienst berichtigen lassen und danach erneut exportieren.',
    DIFFERENCE_NOT_AS_LISTED:
      'Die Verbrauchsdaten liefern diese Messstelle als Differenzzähler (ohne Gerät und ohne Werte), das Messstellenverzeichnis führt sie aber als Zähler mit eigenem Gerät – oder umgekehrt. So übernommen, würde ein gemessener Zähler mit 0 angesetzt oder ein Differenzzähler mit Werten abgerechnet, die er nicht haben kann. Der Verbrauch dieser Messstelle wurde mit 0 angesetzt und nicht abgerechnet. Bitte beim Messdienst klären, welche Angabe stimmt, und danach erneut exportieren.',
    UNIT_NOT_IN_LIST:
      'Das Messstellenverzeichnis der Liegenschaft ordnet Zähler einer Nutzeinheit zu (ihre Kennung ist genannt), die in der Liste der Nutzeinheiten der Liegenschaft fehlt. Für sie wurden keine Verbrauchsdaten abgerufen, und sie hat keine Zeile in der Abrechnung. Ihr wird nichts abgerechnet; die übrigen Nutzeinheiten werden wie gewohnt abgerechnet. Bitte beim Messdienst klären, ob die Nutzeinheit zur Liegenschaft gehört, und danach erneut exportieren.',
    UNITS_FEWER_THAN_COUNT:
      'Die Liegenschaft gibt mehr Nutzeinheiten an, als ihre Liste der Nutzeinheiten enthält (beide Zahlen sind genannt). Nutzeinheiten können also ohne Zeile in der Abrechnung fehlen. Einer nicht gelieferten Nutzeinheit wird nichts abgerechnet; die gelieferten werden wie gewohnt abgerechnet. Bitte beim Messdienst klären, welche Nutzeinheiten fehlen (eine während des Exports angelegte Nutzeinheit zählt mit), und danach erneut exportieren.',
    SHARE_NOT_AS_LISTED:
      'Der Messdienst hat den Anteil dieser Nutzeinheit am gemeinsamen Zähler anders geliefert, als ihn das Messstellenverzeichnis der Liegenschaft für die Nutzeinheit führt. Beides ist derselbe Anteil; einer von beiden ist falsch. Zwischen Nutzeinheiten verschobene Anteile ergeben weiterhin 100 %, die Prüfung der Anteilssumme bemerkt das nicht. Der Zähler wurde dieser Nutzeinheit mit 0 angesetzt und nicht abgerechnet. Bitte beim Messdienst klären, welche Aufteilung gilt, und danach erneut exportieren.',
    METRIC_NOT_AS_LISTED:
      'Der Messdienst hat den Verbrauch dieser Messstelle als andere Verbrauchsart oder in einer anderen Einheit geliefert, als das Messstellenverzeichnis der Liegenschaft für sie führt (etwa einen Wärmemengenzähler in kWh als Kaltwasser in m³). In dieser Zeile würden seine Werte als etwas abgerechnet, das sie nicht sind; er wurde mit 0 angesetzt und nicht abgerechnet. Bitte beim Messdienst klären, was die Messstelle misst, und danach erneut exportieren.',
    COPIES_DISAGREE:
      'Dieser Zähler wird von mehreren Nutzeinheiten geteilt, und der Messdienst hat ihn im Verbrauch der Nutzeinheiten unterschiedlich geliefert: mit anderen Geräten, anderen Einbaudaten oder anderen Ablesewerten oder abrechenbaren Werten. Es ist ein Zähler; nur die Anteile der Nutzeinheiten dürfen sich unterscheiden. Eine der Angaben ist falsch, und jede Nutzeinheit nach ihrer eigenen Angabe abzurechnen, könnte einen Verbrauch berechnen, den der Zähler nie gemessen hat. Er wurde daher bei keiner dieser Nutzeinheiten abgerechnet (mit 0 angesetzt). Bitte beim Messdienst klären, welche Werte stimmen, und danach erneut exportieren.',
    DEVICE_AT_TWO_POINTS:
      'Der Messdienst hat dasselbe Gerät (dieselbe Geräte-ID) unter dieser Messstelle und unter einer weiteren (hier genannt, mit ihren Nutzeinheiten oder als Technikraum- oder Hauptzähler) mit sich überschneidenden Einbauzeiträumen geliefert. Ein Gerät hängt zu jeder Zeit nur an einer Stelle; eine der beiden Angaben ist falsch, und beide abzurechnen würde den Verbrauch des Geräts doppelt berechnen. Keine der beiden Messstellen wurde abgerechnet (mit 0 angesetzt; ein Technikraum- oder Hauptzähler mit 0 in plant-points.csv). Ein Gerät, das zu einem Stichtag von einer Messstelle an die andere umgesetzt wurde, ohne dass sich die Einbauzeiträume überschneiden, ist nicht betroffen. Bitte beim Messdienst klären, wo das Gerät eingebaut war, und danach erneut exportieren.',
    PLANT_POINT_ALLOCATED:
      'Das Messstellenverzeichnis der Liegenschaft führt diesen Zähler ohne Nutzeinheit, also als Technikraum- oder Hauptzähler, und verteilt ihn zugleich mit Anteilen auf Nutzeinheiten. Einen Technikraum- oder Hauptzähler verteilt der Messdienst nie; eine der beiden Angaben ist falsch. Ihn auf beide Arten abzurechnen (anteilig bei den Nutzeinheiten und nochmals in plant-points.csv, wo Sie einen eigenen Verteilerschlüssel anwenden würden), würde seinen Verbrauch doppelt berechnen. Er wurde daher nirgends abgerechnet (bei jeder Nutzeinheit mit 0 angesetzt, nicht in plant-points.csv). Bitte beim Messdienst klären, ob der Zähler zu den Nutzeinheiten gehört, und danach erneut exportieren.',
    PLANT_POINT_IN_UNITS:
      'Das Messstellenverzeichnis der Liegenschaft führt diesen Zähler weder bei einer Nutzeinheit noch mit einer Aufteilung auf Nutzeinheiten; er gilt damit als Technikraum- oder Hauptzähler (plant-points.csv). Zugleich liefert der Messdienst ihn im Verbrauch einer Nutzeinheit. Ihn auf beide Arten abzurechnen (bei der Nutzeinheit und nochmals in plant-points.csv, wo Sie einen eigenen Verteilerschlüssel anwenden würden), würde seinen Verbrauch doppelt berechnen. Er wurde daher nirgends abgerechnet (bei jeder Nutzeinheit mit 0 angesetzt, nicht in plant-points.csv). Bitte beim Messdienst klären, ob der Zähler zu den Nutzeinheiten gehört, und danach erneut exportieren.',
    CONTRADICTORY_VALUES:
      'Der Messdienst führt diese Messstelle als Differenzzähler (ohne eigenes Gerät und ohne eigene Werte) oder meldet für den Zeitraum überhaupt keine Daten, hat aber dennoch abrechenbare Gerätewerte geliefert. Die Antwort widerspricht sich; die Werte wurden mit 0 angesetzt und nicht abgerechnet. Bitte beim Messdienst klären, was zutrifft, und danach erneut exportieren.',
    READINGS_MISSING:
      'Der Messdienst hat für dieses Gerät einen abzurechnenden Verbrauch geliefert, aber keinen Ablesewert zum letzten Monatsende, an dem das Gerät im Abrechnungszeitraum eingebaut war (Ende des Zeitraums oder letztes Monatsende vor dem Ausbau), obwohl die Schnittstelle je Monatsende einen Ablesewert liefert. Der Verbrauch ist durch keinen Ablesewert dieses Zeitraums belegt (er kann aus einem anderen Zeitraum stammen oder auf einem Zwischenstand beruhen); der Verbrauch dieser Messstelle wurde daher mit 0 angesetzt und nicht abgerechnet. Bitte die Monatsendwerte des Zählers beim Messdienst anfordern und danach erneut exportieren.',
    END_VALUE_NOT_AS_READ:
      'Der vom Messdienst gelieferte Endstand dieses Geräts weicht von dessen Ablesewert am selben Tag ab, also zum letzten Monatsende des Abrechnungszeitraums oder zum Monatsende, an dem das Gerät ausgebaut wurde. Laut Schnittstelle ist der Endstand genau dieser Ablesewert; der Verbrauch kann so nicht stimmen und wurde für diese Messstelle mit 0 angesetzt und nicht abgerechnet. Bitte beim Messdienst klären, welcher Wert zutrifft, und danach erneut exportieren.',
    ASSUMED_ZERO_BASELINE:
      'Der Anfangsstand dieses nach einem Gerätetausch eingebauten Heizkostenverteilers wurde nicht erfasst und mit 0 angesetzt. Der Verbrauch ist in der Abrechnung enthalten: bitte dem Eigentümer vorlegen und bestätigen lassen, bevor die Abrechnung versandt wird.',
    NOT_SYSTEM_LINKED:
      'Dieser Zähler ist keiner Heizungs- oder Wasseranlage zugeordnet. Die Werte werden geliefert und sind hier enthalten, im Eigentümerportal erscheint jedoch 0. Vor der Abrechnung mit dem Eigentümer klären, ob der Zähler abgerechnet wird.',
    UNKNOWN_ENUM_VALUE:
      'Der Messdienst hat einen Wert geliefert, den diese Version von meterdata nicht kennt. Ein unbekannter Status wird nicht abgerechnet (mit 0 angesetzt); eine unbekannte Verbrauchsart erhält eine eigene Zeile. Bitte beim Messdienst nachfragen und meterdata aktualisieren.',
    SHARE_SUM_MISMATCH:
      'Dieser Zähler wird von mehreren Nutzeinheiten geteilt, die Anteile der Einheiten in diesem Export ergeben aber weniger als 1. Ein Teil des Verbrauchs wird dadurch niemandem berechnet. Bitte die Aufteilung mit dem Eigentümer prüfen (auch Einheiten außerhalb der freigegebenen Liegenschaften führen dazu).',
    SHARE_SUM_ABOVE_ONE:
      'Dieser Zähler wird von mehreren Nutzeinheiten geteilt, die Anteile der Einheiten in diesem Export ergeben aber mehr als 1: nach diesen Anteilen abgerechnet, zahlten die Nutzeinheiten zusammen mehr, als der Zähler gemessen hat. Er wurde daher bei keiner dieser Nutzeinheiten abgerechnet (mit 0 angesetzt). Bitte beim Messdienst oder Eigentümer klären, welche Aufteilung gilt, und danach erneut exportieren.',
    DATA_GAP:
      'Für diesen Zähler liegen im gewählten Zeitraum keine Werte vor; es wird nichts abgerechnet. Ablesewerte beim Messdienst anfordern oder eine Schätzung mit dem Eigentümer abstimmen.',
    DIFFERENCE_METER:
      'Diese Messstelle ist ein Differenzzähler ohne eigenes Gerät und ohne eigene Werte; hier wird nichts abgerechnet. Den Verbrauch bei Bedarf aus den zugehörigen Zählern ermitteln.',
    DEVICE_GAP:
      'Zwischen dem Ausbau des einen und dem Einbau des nächsten Zählers bzw., wo dessen Einbau nicht dokumentiert ist, seinem ersten bekannten Stand (Daten angegeben) hat kein Gerät den Verbrauch dieser Messstelle erfasst, obwohl weiter verbraucht worden sein kann. Der abgerechnete Wert umfasst nur die Tage mit eingebautem Zähler (alter und neuer Zähler zusammengerechnet). Bitte mit dem Eigentümer und dem Messdienst klären, warum kein Zähler eingebaut war, und für diese Tage vor dem Versand eine Schätzung abstimmen.',
    START_VALUE_LATE:
      'Der Anfangsstand dieses Zählers (der Stand, ab dem sein Verbrauch gezählt wird) wurde erst am angegebenen Stichtag erfasst, nach dem Einbau (bzw. nach dem Ausbau des Vorgängers oder, wo der Einbau nicht dokumentiert ist, nach Beginn des Zeitraums). Der Verbrauch der Tage davor (Daten angegeben) steckt in keinem Zählerwert: Der abgerechnete Wert umfasst nur die Tage ab dem Anfangsstand. Bitte beim Messdienst einen Stand zum Einbautag anfordern; sonst für diese Tage vor dem Versand eine Schätzung mit dem Eigentümer abstimmen.',
    DEVICE_REPLACED:
      'Das Gerät wurde getauscht; die Verbräuche des alten und des neuen Geräts sind addiert, jeweils ab dem eigenen Anfangsstand. Kein Handlungsbedarf, sofern die Werte plausibel sind.',
    DEVICE_REMOVED:
      'Das Gerät wurde ausgebaut und nicht ersetzt; der Verbrauch ist bis zum Ausbautag abgerechnet. Prüfen, ob die Nutzeinheit weiterhin einen Zähler benötigt.',
    SYNTHETIC_VALUE:
      'Einzelne Monatsendwerte wurden vom Messdienst rechnerisch ermittelt (interpoliert) statt vom Gerät abgelesen. Sie werden wie geliefert abgerechnet; bei Rückfragen von Mietern darauf hinweisen.',
    WEIGHTED_VALUE_ABSENT:
      'Der Messdienst hat für diese Nutzeinheit keinen gewichteten Wert geliefert; meterdata hat den abrechenbaren Wert × Anteil dieser Einheit abgerechnet. So definiert die Schnittstelle den gewichteten Wert (bei einem nicht geteilten Zähler ist der Anteil 1, also der abrechenbare Wert selbst). Den vollen abrechenbaren Wert anzusetzen, würde einen gemeinsamen Zähler jeder Einheit voll berechnen. Kein Handlungsbedarf, sofern der Anteil stimmt.',
    READING_NOT_IN_SERIES:
      'Der Messdienst hat für dieses Gerät einen Ablesewert geliefert, der auf keines der Monatsenden des abgefragten Zeitraums datiert ist (zwischen zwei Monatsenden oder außerhalb des Zeitraums), obwohl die Schnittstelle nur einen Ablesewert je Monatsende des Zeitraums liefert. Der abgerechnete Verbrauch beruht auf den Ablesewerten zum Ende des Zeitraums (und zum Ausbau des Geräts); der Ablesewert ändert ihn nur, wenn er unter einem früheren Zählerstand des Geräts liegt (das Zählwerk liefe rückwärts: REGISTER_BACKWARDS, nicht abgerechnet). readings.csv enthält den Ablesewert wie geliefert. Bitte den Messdienst auf das Datum des Ablesewerts hinweisen.',
    WATER_OUTDOOR:
      'Außen- und Gartenwasser steht in einer eigenen Zeile und wird nie zum Wasserverbrauch der Bewohner addiert. Bitte nach Mietvertrag zuordnen (z. B. Eigentümer oder Gartennutzer).',
    UNALLOCATED_POINT:
      'Technikraum- oder Hauptzähler, gesondert bei den Anlagenzählern aufgeführt. Der Messdienst verteilt ihn nicht auf die Nutzeinheiten; bei Bedarf nach eigenem Umlageschlüssel verteilen.',
    CONSUMPTION_CHANGE:
      'Der abgerechnete Verbrauch weicht stärker als die Prüfschwelle vom Vergleichszeitraum ab. Vor dem Versand die Ablesewerte prüfen (Gerätetausch, Leerstand, Mieterwechsel, Leckage).',
    COMPARISON_ZERO:
      'In einem Zeitraum wurde Verbrauch erfasst, im anderen keiner. Vor der Abrechnung auf Leerstand, einen stehenden Zähler oder einen Ablesefehler prüfen.',
    NEW_SINCE_COMPARISON:
      'Für diese Nutzeinheit bzw. diesen Zähler liegen im Vergleichszeitraum keine Verbrauchsdaten vor; ein Vergleich ist nicht möglich. Mit dem Eigentümer klären, ob sie neu ist und ab dem richtigen Datum abgerechnet wird.',
    GONE_SINCE_COMPARISON:
      'Diese Nutzeinheit bzw. dieser Zähler hatte im Vergleichszeitraum Verbrauch, im aktuellen Zeitraum liegen keine Daten vor. Prüfen, ob sie aufgelöst, zusammengelegt wurde oder in diesem Export fehlt.',
    COMPARISON_NOT_BILLED:
      'In einem der beiden Zeiträume wurde dieser Wert nicht oder nicht vollständig abgerechnet: Ein Wert fehlt, die Eichfrist ist abgelaufen, oder meterdata rechnet die Lieferung nicht ab (im Vergleichszeitraum etwa einen Zähler, den nur die Lieferung dieses Zeitraums nennt und den das heutige Messstellenverzeichnis der Liegenschaft nicht mehr führt, weil er inzwischen ausgebaut wurde). Er wird daher nicht verglichen und nicht als 0 gewertet. Die Veränderung bei Bedarf von Hand beurteilen.',
    COMPARISON_OTHER_LENGTH:
      'Diese Liegenschaft hat keine eigenen Nutzeinheiten und wird für die Monate abgerechnet, die der Messdienst für die vorherigen Liegenschaften geliefert hat. Ihr Vergleichszeitraum (abgerufen für den nach der Uhr dieses Rechners erwarteten Zeitraum, oder ein früherer Exportordner) umfasst eine andere Zahl von Monaten. Ein Vergleich von etwa 10 mit 11 Monaten wiese jeden Wert als verändert aus; ihre Technikraum- und Hauptzähler werden daher nicht verglichen. Den Verbrauch bei Bedarf von Hand beurteilen oder erneut exportieren, sobald der Messdienst den vollständigen Zeitraum liefert.',
    ZERO_CONSUMPTION:
      'Ein Gerät war über den gesamten Zeitraum eingebaut, hat aber keinen Verbrauch erfasst. Vor der Abrechnung auf Leerstand oder einen defekten bzw. stehenden Zähler prüfen.',
    PER_M2_OUTLIER:
      'Der Verbrauch je Quadratmeter dieser Nutzeinheit liegt außerhalb von einem Drittel bis zum Dreifachen des Medians vergleichbarer Nutzeinheiten der Liegenschaft. Vor der Abrechnung Ablesewerte und Wohnfläche prüfen.',
    CALIBRATION_ENDED:
      'Die Schnittstelle liefert das Eichjahr des Geräts nicht; das Ende der Eichfrist ist daher aus dem Einbaudatum geschätzt (Anlage 7 MessEV, Ende jeweils am 31. Dezember nach § 34 MessEV). Nach dieser Schätzung endete sie vor dem Ende des Abrechnungszeitraums. Der Messdienst hat die Werte aber nicht als „Eichfrist abgelaufen“ gekennzeichnet; sie sind wie geliefert abgerechnet. Bitte beim Messdienst das Eichjahr laut Eichmarke erfragen und ob das Gerät inzwischen getauscht oder nachgeeicht wurde. Ist die Eichfrist tatsächlich abgelaufen, vor dem Versand mit dem Eigentümer klären, wie dieser Verbrauch verteilt wird.',
    CALIBRATION_ENDS_SOON:
      'Nach dem Einbaudatum geschätzt (das Eichjahr liefert die Schnittstelle nicht), läuft die Eichfrist dieses Geräts zum Ende dieses Zeitraums oder im Folgejahr ab; für den abgerechneten Zeitraum war es geeicht. Den Gerätetausch rechtzeitig einplanen und das Eichjahr beim Messdienst bestätigen lassen.',
    CALIBRATION_DATE_UNKNOWN:
      'Das Einbaudatum dieses Geräts ist nicht dokumentiert; das Ende der Eichfrist lässt sich daher nicht bestimmen. Das Datum beim Messdienst erfragen.',
    ESTIMATED_SHARE_HIGH:
      'Mehr als ein Viertel des abgerechneten Verbrauchs dieser Liegenschaft und Verbrauchsart beruht auf errechneten, ersetzten oder angenommenen Werten. Vor der Abrechnung die Ablesewerte der betroffenen Nutzeinheiten mit dem Messdienst klären.',
    ESTIMATED_AREA_HIGH:
      'Die Nutzeinheiten, deren Verbrauch geschätzt werden musste (errechnete oder ersetzte Werte, nicht abgerechnete Werte oder keine Daten), umfassen mehr als 25 % der für die Kostenverteilung maßgeblichen Fläche dieser Kostenart. Nach § 9a Abs. 2 HeizkostenV sind die Kosten dann ausschließlich nach den Maßstäben für die übrigen Kosten (§ 7 Abs. 1 Satz 5 und § 8 Abs. 1: Wohn- oder Nutzfläche oder umbauter Raum) zu verteilen, nicht nach Verbrauch. Die geschätzten Nutzeinheiten vor der Abrechnung mit dem Eigentümer und dem Messdienst klären.',
    ESTIMATED_AREA_UNKNOWN:
      'Für einige Nutzeinheiten dieser Kostenart (die genannten) ist keine Fläche hinterlegt; ob die Nutzeinheiten mit geschätztem Verbrauch mehr als 25 % der Fläche nach § 9a Abs. 2 HeizkostenV umfassen, lässt sich daher nicht bestimmen. Über 25 % sind die Kosten ausschließlich nach den festen Maßstäben zu verteilen. Bitte die Flächen der genannten Nutzeinheiten beim Eigentümer erfragen.',
    UNIT_REF_MISSING:
      'Die Datei zu --unit-refs enthält keine Zeile für diese Nutzeinheit; die Spalte erp_ref bleibt leer, ein ERP-Import kann sie nicht zuordnen. Bitte eine Zeile mit ihrer usage_unit_id und ERP-Nummer ergänzen und erneut exportieren.',
    UNIT_REF_UNKNOWN:
      'Die Datei zu --unit-refs nennt eine Nutzeinheit, die nicht in diesem Export enthalten ist (andere Liegenschaft, entfallene Nutzeinheit oder vertippte ID). Ihr wird nichts zugeordnet. Bitte die Zeile prüfen: Ist die ID vertippt, erscheint die gemeinte Nutzeinheit ohne ERP-Nummer.',
    UNIT_REF_SHARED:
      'Die Datei zu --unit-refs ordnet diese ERP-Nummer mehreren Nutzeinheiten zu; ein ERP-Import bucht deren Verbrauch zusammen. Bitte die Datei berichtigen, falls das ein Versehen ist; sonst so belassen, wenn das ERP diese Nutzeinheiten bewusst als eine führt.',
  },
);
