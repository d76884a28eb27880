import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '@/db/seed-data';
import { MIN_PASSWORD_LENGTH, passwordProblem } from '@/lib/identity';

describe('passwordProblem (NIST SP 800-63B)', () => {
  it('accepts a long password of any characters, with no composition rules', () => {
    expect(MIN_PASSWORD_LENGTH).toBe(12);
    expect(passwordProblem('correct horse battery')).toBeNull();
    expect(passwordProblem('aaaabbbbcccc')).toBeNull();
    expect(passwordProblem('mot de passe très long')).toBeNull();
  });

  it('refuses fewer than 12 characters, counting characters as a person does', () => {
    expect(passwordProblem('short-pass1')).toBe('must be at least 12 characters');
    expect(passwordProblem('')).toBe('must be at least 12 characters');
    // Six emoji are twelve UTF-16 units but six characters.
    expect(passwordProblem('🙂'.repeat(6))).toBe('must be at least 12 characters');
    expect(passwordProblem('🙂'.repeat(12))).toBeNull();
  });

  it('refuses a password on the bundled list of common passwords, whatever its letter case', () => {
    for (const common of ['1qaz2wsx3edc', 'qwerty123456', 'QWERTY123456', '1Qaz2Wsx3Edc']) {
      expect(passwordProblem(common)).toBe(
        'is on a list of commonly used passwords; choose one that is harder to guess',
      );
    }
  });

  it('refuses the published demo password however it is written, and absurd lengths', () => {
    expect(DEMO_PASSWORD.length).toBeGreaterThanOrEqual(12);
    expect(passwordProblem(DEMO_PASSWORD)).toBe('must not be the published demo password');
    expect(passwordProblem(DEMO_PASSWORD.toUpperCase())).toBe('must not be the published demo password');
    expect(passwordProblem('x'.repeat(257))).toBe('must be at most 256 characters');
    expect(passwordProblem('x'.repeat(256))).toBeNull();
  });
});
