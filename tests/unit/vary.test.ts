import { describe, expect, it } from 'vitest';
import { varyOn } from '@/lib/http/vary';

// Vary is added to, never overwritten: Next.js appends its own values and its compression adds Accept-Encoding.
describe('varyOn', () => {
  it('adds names once, keeping what is there in its order and spelling', () => {
    const headers = new Headers({ Vary: 'RSC, Next-Router-State-Tree' });
    varyOn(headers, 'Accept');
    varyOn(headers, 'accept', 'Origin');
    expect(headers.get('vary')).toBe('RSC, Next-Router-State-Tree, Accept, Origin');
  });

  it('sets the header when there is none, and leaves Vary: * alone', () => {
    const fresh = new Headers();
    varyOn(fresh, 'Accept');
    expect(fresh.get('vary')).toBe('Accept');
    const any = new Headers({ Vary: '*' });
    varyOn(any, 'Origin');
    expect(any.get('vary')).toBe('*');
  });
});
