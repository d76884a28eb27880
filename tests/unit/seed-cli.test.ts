import { describe, expect, it } from 'vitest';
import { databaseHosts, isLocalDatabaseUrl } from '@/scripts/open-database';

describe('isLocalDatabaseUrl (the seed command refuses other machines without --force)', () => {
  it.each([
    'postgres://postgres@127.0.0.1:5432/test',
    'postgres://postgres@localhost/test',
    'postgresql://u:p@LOCALHOST:5433/db?sslmode=disable',
    'postgres://u:p@[::1]:5432/x',
    'postgres://u@%2Fvar%2Frun%2Fpostgresql/db',
    'postgres://127.0.0.2,localhost:5433/db',
  ])('accepts %s', (url) => {
    expect(isLocalDatabaseUrl(url)).toBe(true);
  });

  it.each([
    'postgres://u:p@db.example.com/prod',
    'postgres://u:p@10.0.0.5:5432/prod',
    'postgres://localhost,db.example.com/prod',
    'postgres://u@127.0.0.1.example.com/x',
  ])('refuses %s', (url) => {
    expect(isLocalDatabaseUrl(url)).toBe(false);
  });

  it('reads hosts the way postgres.js does', () => {
    expect(databaseHosts('postgres://u:p%40ss@h1:1,h2/db')).toEqual(['h1', 'h2']);
    expect(databaseHosts('postgres://u@%2Ftmp/db')).toEqual(['/tmp']);
  });
});
