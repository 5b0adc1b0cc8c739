// SECRET_DETECTION_MODE and an organisation's own mode: the one definition (config re-exports it).
export type SecretDetectionMode = 'off' | 'mask' | 'block';
