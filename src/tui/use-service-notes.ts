// What the API client reports while the screens wait: a rate-limit wait (counted down
// each second) and the last retry, shown only while the loads it was about still run.
import { useEffect, useRef, useState } from 'react';
import type { BrowseData } from './data.js';
import { t } from './texts.js';

export function useServiceNotes(data: BrowseData, loadsNow: string): { rateWait: number; retryText: string | null } {
  const [rateUntil, setRateUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [retry, setRetry] = useState<{ text: string; during: string } | null>(null);
  const loads = useRef(loadsNow);
  loads.current = loadsNow;
  useEffect(
    () =>
      data.onEvent((e) => {
        if (e.type === 'rate-limited') setRateUntil(Date.now() + e.waitMs);
        if (e.type === 'retry') setRetry({ text: t.retrying({ reason: e.reason, attempt: e.attempt }), during: loads.current });
      }),
    [data],
  );
  useEffect(() => {
    if (rateUntil <= now) return;
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [rateUntil, now]);
  useEffect(() => setNow(Date.now()), [rateUntil]);
  return { rateWait: Math.ceil((rateUntil - now) / 1000), retryText: retry && retry.during === loadsNow ? retry.text : null };
}
