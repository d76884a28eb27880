import { describe, expect, it, vi } from 'vitest';
import { withinDeadline } from '@/lib/shared/deadline';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('withinDeadline', () => {
  it('gives the work’s answer, or its failure, when it comes in time', async () => {
    const discard = vi.fn();
    await expect(withinDeadline(later(5, 'rows'), 200, () => new Error('late'), discard)).resolves.toBe('rows');
    const failing = Promise.reject(new Error('refused'));
    await expect(withinDeadline(failing, 200, () => new Error('late'), discard)).rejects.toThrow('refused');
    expect(discard).not.toHaveBeenCalled();
  });

  it('fails with the deadline’s error when the work is late, and discards what it gives afterwards', async () => {
    const discard = vi.fn();
    const started = performance.now();
    await expect(withinDeadline(later(120, 'body'), 30, () => new Error('no answer'), discard)).rejects.toThrow(
      'no answer',
    );
    expect(performance.now() - started).toBeLessThan(100);
    expect(discard).not.toHaveBeenCalled();
    await later(150, null);
    expect(discard).toHaveBeenCalledWith('body');
  });

  it('swallows a failure that comes after the deadline (no unhandled rejection)', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const failsLate = new Promise((_, reject) => setTimeout(() => reject(new Error('reset')), 40));
      await expect(
        withinDeadline(
          failsLate,
          10,
          () => new Error('no answer'),
          () => {},
        ),
      ).rejects.toThrow('no answer');
      await later(80, null);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
