{{/*
Template-time refusals: combinations that would install but cannot work. Each message names the
values to change. Included from deployment.yaml, so `helm template` and `helm install` stop on them.
*/}}
{{- define "aegis.validate" -}}
{{- $set := dict -}}
{{- range $name := list "GITEA_TOKEN" "MCP_BEARER_TOKEN" "GITEA_OAUTH_CLIENT_ID" "GITEA_OAUTH_CLIENT_SECRET" "ENCRYPTION_KEY" "DATABASE_URL" "REDIS_URL" -}}
{{- $_ := set $set $name (eq (include "aegis.isSet" (dict "root" $ "name" $name)) "true") -}}
{{- end -}}
{{- $max := int (include "aegis.maxReplicas" .) -}}
{{- $oauth := $set.GITEA_OAUTH_CLIENT_ID -}}
{{- $v := .Values -}}

{{- range $name, $ref := $v.secrets.existingSecretKeys -}}
{{- if and (kindIs "string" $ref) (not $v.secrets.existingSecret) -}}
{{- fail (printf "secrets.existingSecretKeys.%s names a key but secrets.existingSecret is empty: set secrets.existingSecret to the Secret's name (or give {name, key})" $name) -}}
{{- end -}}
{{- if hasKey $v.config $name -}}
{{- fail (printf "%s is a secret: remove config.%s" $name $name) -}}
{{- end -}}
{{- end -}}
{{- range $name, $value := $v.secrets.values -}}
{{- if and $value (hasKey $v.secrets.existingSecretKeys $name) -}}
{{- fail (printf "%s is given twice: in secrets.values and in secrets.existingSecretKeys; keep one" $name) -}}
{{- end -}}
{{- end -}}

{{- if and (not $set.MCP_BEARER_TOKEN) (not $oauth) -}}
{{- fail "no way for agents to authenticate: set MCP_BEARER_TOKEN with GITEA_TOKEN (secrets), or per-user OAuth (config.GITEA_OAUTH_CLIENT_ID and secrets GITEA_OAUTH_CLIENT_SECRET, ENCRYPTION_KEY)" -}}
{{- end -}}
{{- if and $set.MCP_BEARER_TOKEN (not $set.GITEA_TOKEN) -}}
{{- fail "MCP_BEARER_TOKEN is set without GITEA_TOKEN: the bearer acts as the service account, so give its Gitea token too (secrets.values.GITEA_TOKEN or secrets.existingSecretKeys.GITEA_TOKEN)" -}}
{{- end -}}
{{- with $v.secrets.values.MCP_BEARER_TOKEN -}}
{{- if or (lt (len .) 32) (not (regexMatch "^[\\x21-\\x7e]+$" .)) -}}
{{- fail "secrets.values.MCP_BEARER_TOKEN must be at least 32 printable ASCII characters without spaces (e.g. openssl rand -base64 32)" -}}
{{- end -}}
{{- end -}}
{{- if ne $oauth $set.GITEA_OAUTH_CLIENT_SECRET -}}
{{- fail "per-user OAuth needs both config.GITEA_OAUTH_CLIENT_ID and the secret GITEA_OAUTH_CLIENT_SECRET" -}}
{{- end -}}
{{- if and $oauth (not (include "aegis.publicUrl" .)) -}}
{{- fail "OAuth is on (config.GITEA_OAUTH_CLIENT_ID) without a public URL: set config.PUBLIC_URL, or enable the ingress with a host (Gitea redirects users back to that URL)" -}}
{{- end -}}
{{- with include "aegis.publicUrl" . -}}
{{- if and $oauth (hasPrefix "http://" .) (not (regexMatch "^http://(localhost|127\\.[0-9.]+|\\[::1\\])(:[0-9]+)?(/|$)" .)) -}}
{{- fail (printf "OAuth is on (config.GITEA_OAUTH_CLIENT_ID) with the public URL %s: the authorization server must be reached over https; set config.PUBLIC_URL to https://..., or list the ingress host under ingress.tls" .) -}}
{{- end -}}
{{- end -}}
{{- if and $oauth (not $set.ENCRYPTION_KEY) -}}
{{- fail "OAuth is on (config.GITEA_OAUTH_CLIENT_ID) without ENCRYPTION_KEY: the stored grants must be encrypted; set the secret ENCRYPTION_KEY (openssl rand -base64 32)" -}}
{{- end -}}
{{- if gt $max 1 -}}
{{- if not $set.REDIS_URL -}}
{{- fail (printf "%d replicas without REDIS_URL: the in-process queue and limits are per pod; set the secret REDIS_URL or run one replica (replicaCount: 1, autoscaling.enabled: false)" $max) -}}
{{- end -}}
{{- if not $set.ENCRYPTION_KEY -}}
{{- fail (printf "%d replicas without ENCRYPTION_KEY: every pod must share the key that signs sessions and encrypts grants; set the secret ENCRYPTION_KEY (openssl rand -base64 32)" $max) -}}
{{- end -}}
{{- if not $set.DATABASE_URL -}}
{{- fail (printf "%d replicas without DATABASE_URL: the embedded database belongs to one pod; set the secret DATABASE_URL (PostgreSQL)" $max) -}}
{{- end -}}
{{- end -}}
{{- if and $v.autoscaling.enabled (gt (int $v.autoscaling.minReplicas) (int $v.autoscaling.maxReplicas)) -}}
{{- fail "autoscaling.minReplicas is larger than autoscaling.maxReplicas" -}}
{{- end -}}
{{- $shutdown := include "aegis.config" (dict "root" . "name" "SHUTDOWN_TIMEOUT_MS") | default "10000" | int -}}
{{- if ge (div $shutdown 1000) (int $v.terminationGracePeriodSeconds) -}}
{{- fail (printf "terminationGracePeriodSeconds (%d) must exceed SHUTDOWN_TIMEOUT_MS (%d ms), or Kubernetes kills pods mid-shutdown" (int $v.terminationGracePeriodSeconds) $shutdown) -}}
{{- end -}}
{{- if and $v.persistence.enabled (not $v.persistence.existingClaim) (gt $max 1) (has "ReadWriteOnce" $v.persistence.accessModes) -}}
{{- fail "persistence with ReadWriteOnce and more than one replica: with DATABASE_URL set the data volume is not needed (persistence.enabled: false)" -}}
{{- end -}}
{{- $gitea := include "aegis.config" (dict "root" . "name" "GITEA_URL") -}}
{{- if regexMatch "/api/v1/?$" $gitea -}}
{{- fail (printf "config.GITEA_URL must be Gitea's base URL without /api/v1 (e.g. %s)" (regexReplaceAll "/api/v1/?$" $gitea "")) -}}
{{- end -}}
{{- end -}}
