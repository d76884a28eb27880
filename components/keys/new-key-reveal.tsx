import { SecretReveal } from '@/components/ui/secret-reveal';

/** The raw key, shown once. */
export function NewKeyReveal({ apiKey }: { apiKey: string }) {
  return (
    <SecretReveal
      secret={apiKey}
      what="key"
      warning="Copy this key now and store it somewhere safe. It will not be shown again: we keep only a hash of it."
      testId="new-api-key"
    />
  );
}
