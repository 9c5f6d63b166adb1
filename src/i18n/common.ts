// Words many commands share: said once, so "Liegenschaft" is not spelt three ways.
import { catalogue } from './index.js';

export const words = catalogue(
  'common',
  {
    property: 'Property',
    properties: 'Properties',
    unit: 'unit',
    units: 'units',
    point: 'measuring point',
    points: 'measuring points',
    request: 'request',
    requests: 'requests',
    seeHelp: (p: { command: string }) => `See: meterdata ${p.command}--help`,
  },
  {
    property: 'Liegenschaft',
    properties: 'Liegenschaften',
    unit: 'Nutzeinheit',
    units: 'Nutzeinheiten',
    point: 'Messstelle',
    points: 'Messstellen',
    request: 'Abfrage',
    requests: 'Abfragen',
    seeHelp: (p) => `Hilfe: meterdata ${p.command}--help`,
  },
);
