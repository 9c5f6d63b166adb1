// The findings' explanations where the HeizkostenV governs the bill (heating and warm water):
// they name its paragraphs. Pure (billing imports no fs).
import { catalogue } from '../i18n/index.js';
import type { FlagCode } from './types.js';

/**
 * What to do instead, where the meter's consumption is billed under the HeizkostenV (heating and
 * warm water): § 9a Abs. 1 says how the missing consumption is determined, Abs. 2 when it may not
 * be. For cold water, electricity and gas the HeizkostenV does not apply, so their findings keep
 * the general explanation and name no paragraph.
 */
export const heizkostenExplanations = catalogue(
  'flag-explanations-heizkosten',
  {
    CALIBRATION_EXPIRED:
      "The device's calibration period had ended, so its consumption for this period is not billed (counted as 0). Arrange for the device to be replaced. Under § 9a (1) HeizkostenV the consumption is then determined from the same rooms' consumption in comparable periods, comparable rooms or the building's average; where such units make up more than 25 % of the floor area, § 9a (2) distributes the costs by the fixed keys only. Agree this with the landlord before the bill is sent.",
    DEVICE_GAP:
      "Between the removal of one device and the installation of the next, or where its installation is not documented its first known value (dates given), no device measured this meter's consumption, though heat or warm water went on being used. The value billed covers only the days a device was installed, adding up the old and the new device. Under § 9a (1) HeizkostenV consumption that could not be properly recorded is determined by the building owner from the same rooms' consumption in comparable periods, comparable rooms or the building's average. Agree the estimate for these days with the landlord before the bill is sent.",
    START_VALUE_LATE:
      "This device's start value (the meter reading its consumption is counted from) was taken only on the start date given, after the device was installed (or after its predecessor was removed, or, where the installation is not documented, after the period began). The heat or warm water used on the days before it (dates given) is in no device's figure: the value billed covers only the days from the start value on. Under § 9a (1) HeizkostenV consumption that could not be properly recorded is determined by the building owner from the same rooms' consumption in comparable periods, comparable rooms or the building's average. Ask the metering service for a reading on the installation day; otherwise agree the estimate for these days with the landlord before the bill is sent.",
  } satisfies Partial<Record<FlagCode, string>>,
  {
    CALIBRATION_EXPIRED:
      'Die Eichfrist des Geräts war abgelaufen; der Verbrauch für diesen Zeitraum wurde mit 0 angesetzt und nicht abgerechnet. Bitte den Gerätetausch veranlassen. Nach § 9a Abs. 1 HeizkostenV ist der Verbrauch dann aus dem Verbrauch der Räume in vergleichbaren Zeiträumen, vergleichbarer anderer Räume oder dem Durchschnitt des Gebäudes zu ermitteln; betrifft das mehr als 25 % der Fläche, sind die Kosten nach § 9a Abs. 2 nur nach den festen Maßstäben zu verteilen. Vor dem Versand mit dem Eigentümer abstimmen.',
    DEVICE_GAP:
      'Zwischen dem Ausbau des einen und dem Einbau des nächsten Zählers bzw., wo dessen Einbau nicht dokumentiert ist, seinem ersten bekannten Stand (Daten angegeben) hat kein Gerät den Verbrauch dieser Messstelle erfasst, obwohl weiter geheizt bzw. Warmwasser entnommen wurde. Der abgerechnete Wert umfasst nur die Tage mit eingebautem Zähler (alter und neuer Zähler zusammengerechnet). Nach § 9a Abs. 1 HeizkostenV hat der Gebäudeeigentümer nicht ordnungsgemäß erfassten Verbrauch aus dem Verbrauch der Räume in vergleichbaren Zeiträumen, vergleichbarer anderer Räume oder dem Durchschnitt des Gebäudes zu ermitteln. Die Schätzung für diese Tage vor dem Versand mit dem Eigentümer abstimmen.',
    START_VALUE_LATE:
      'Der Anfangsstand dieses Zählers (der Stand, ab dem sein Verbrauch gezählt wird) wurde erst am angegebenen Stichtag erfasst, nach dem Einbau (bzw. nach dem Ausbau des Vorgängers oder, wo der Einbau nicht dokumentiert ist, nach Beginn des Zeitraums). Der Verbrauch an Wärme bzw. Warmwasser der Tage davor (Daten angegeben) steckt in keinem Zählerwert: Der abgerechnete Wert umfasst nur die Tage ab dem Anfangsstand. Nach § 9a Abs. 1 HeizkostenV hat der Gebäudeeigentümer nicht ordnungsgemäß erfassten Verbrauch aus dem Verbrauch der Räume in vergleichbaren Zeiträumen, vergleichbarer anderer Räume oder dem Durchschnitt des Gebäudes zu ermitteln. Bitte beim Messdienst einen Stand zum Einbautag anfordern; sonst die Schätzung für diese Tage vor dem Versand mit dem Eigentümer abstimmen.',
  },
);
