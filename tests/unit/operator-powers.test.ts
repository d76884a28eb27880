import { describe, expect, it } from 'vitest';
import { isOperator, MEMBER_ROLES, operatorPowersOf } from '@/lib/access/browser';

/** Issue 39, point 2: what the invitation form says of each role agrees with the check the services make. */
describe('the operator account’s roles', () => {
  it('carry the powers the README names: Owner both, Admin operate, Finance pay, Viewer none', () => {
    expect(Object.fromEntries(MEMBER_ROLES.map((role) => [role, operatorPowersOf(role)]))).toEqual({
      owner: ['operate', 'pay'],
      admin: ['operate'],
      finance: ['pay'],
      viewer: [],
    });
  });

  it('are what isOperator grants, and only in the operator’s account', () => {
    for (const memberRole of MEMBER_ROLES) {
      for (const power of ['operate', 'pay'] as const) {
        const granted = operatorPowersOf(memberRole).includes(power);
        expect(isOperator({ role: 'admin', memberRole }, power)).toBe(granted);
        expect(isOperator({ role: 'publisher', memberRole }, power)).toBe(false);
      }
    }
  });
});
