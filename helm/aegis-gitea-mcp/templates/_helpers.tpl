{{/* Names and labels. */}}
{{- define "aegis.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "aegis.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "aegis.selectorLabels" -}}
app.kubernetes.io/name: {{ include "aegis.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "aegis.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "aegis.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: aegis-gitea-mcp
{{- end -}}

{{- define "aegis.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "aegis.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "aegis.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/* A plain setting as the service will see it ("" when left to the service default). */}}
{{- define "aegis.config" -}}
{{- $v := index .root.Values.config .name -}}
{{- if kindIs "invalid" $v -}}{{- else -}}{{- $v | toString -}}{{- end -}}
{{- end -}}

{{- define "aegis.port" -}}
{{- $p := include "aegis.config" (dict "root" . "name" "PORT") -}}
{{- if $p -}}{{ $p }}{{- else -}}8080{{- end -}}
{{- end -}}

{{- define "aegis.metricsPort" -}}
{{- $p := include "aegis.config" (dict "root" . "name" "METRICS_PORT") -}}
{{- if $p -}}{{ $p }}{{- else -}}9464{{- end -}}
{{- end -}}

{{/*
Where each secret variable comes from, as YAML: {VAR: {name: <Secret>, key: <key>}}. A variable
listed in secrets.existingSecretKeys is read from that Secret; one with a non-empty value under
secrets.values from the Secret this chart creates. Nothing else is set.
*/}}
{{- define "aegis.secretRefs" -}}
{{- $refs := dict -}}
{{- $own := include "aegis.fullname" . -}}
{{- range $name, $value := .Values.secrets.values -}}
{{- if and (not (kindIs "invalid" $value)) (ne (toString $value) "") -}}
{{- $_ := set $refs $name (dict "name" $own "key" $name) -}}
{{- end -}}
{{- end -}}
{{- range $name, $ref := .Values.secrets.existingSecretKeys -}}
{{- if kindIs "string" $ref -}}
{{- $_ := set $refs $name (dict "name" $.Values.secrets.existingSecret "key" $ref) -}}
{{- else -}}
{{- $_ := set $refs $name (dict "name" (default $.Values.secrets.existingSecret $ref.name) "key" $ref.key) -}}
{{- end -}}
{{- end -}}
{{- toYaml $refs -}}
{{- end -}}

{{/* "true" when the variable is set, as a plain setting or as a secret. */}}
{{- define "aegis.isSet" -}}
{{- $refs := include "aegis.secretRefs" .root | fromYaml -}}
{{- if or (hasKey $refs .name) (ne (include "aegis.config" .) "") -}}true{{- end -}}
{{- end -}}

{{/* Values of the chart-created Secret (non-empty secrets.values not taken from elsewhere). */}}
{{- define "aegis.ownSecretData" -}}
{{- $data := dict -}}
{{- range $name, $value := .Values.secrets.values -}}
{{- if and (not (kindIs "invalid" $value)) (ne (toString $value) "") (not (hasKey $.Values.secrets.existingSecretKeys $name)) -}}
{{- $_ := set $data $name (toString $value) -}}
{{- end -}}
{{- end -}}
{{- toYaml $data -}}
{{- end -}}

{{/* The most pods that may run at once. */}}
{{- define "aegis.maxReplicas" -}}
{{- if .Values.autoscaling.enabled -}}{{ .Values.autoscaling.maxReplicas }}{{- else -}}{{ .Values.replicaCount }}{{- end -}}
{{- end -}}

{{- define "aegis.minReplicas" -}}
{{- if .Values.autoscaling.enabled -}}{{ .Values.autoscaling.minReplicas }}{{- else -}}{{ .Values.replicaCount }}{{- end -}}
{{- end -}}

{{/* PUBLIC_URL as given, else from the first ingress host (https when that host has TLS). */}}
{{- define "aegis.publicUrl" -}}
{{- $given := include "aegis.config" (dict "root" . "name" "PUBLIC_URL") -}}
{{- if $given -}}
{{- $given -}}
{{- else if and .Values.ingress.enabled .Values.ingress.hosts -}}
{{- $host := (first .Values.ingress.hosts).host -}}
{{- $tls := false -}}
{{- range .Values.ingress.tls -}}{{- if has $host .hosts -}}{{- $tls = true -}}{{- end -}}{{- end -}}
{{- printf "%s://%s" (ternary "https" "http" $tls) $host -}}
{{- end -}}
{{- end -}}

{{/* Pod labels that NetworkPolicy and the Service select on. */}}
{{- define "aegis.serverSelectorLabels" -}}
{{ include "aegis.selectorLabels" . }}
app.kubernetes.io/component: server
{{- end -}}
