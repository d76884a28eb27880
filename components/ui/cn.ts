import { clsx, type ClassValue } from 'clsx';

/** Joins class names, dropping falsy ones. */
export const cn = (...classes: ClassValue[]) => clsx(classes);
