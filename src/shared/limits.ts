/** The ingress body limit (seed §8): the relay enforces it and the UI shows sizes against it. */
export const MAX_BODY_BYTES = 262_144;
