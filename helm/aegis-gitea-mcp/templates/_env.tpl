{{/* The container env shared by the Deployment and the migration Job: ConfigMap + secret refs. */}}
{{- define "aegis.envFrom" -}}
- configMapRef:
    name: {{ include "aegis.fullname" . }}
{{- end -}}

{{- define "aegis.secretEnv" -}}
{{- $refs := include "aegis.secretRefs" . | fromYaml -}}
{{- range $name, $ref := $refs }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.name }}
      key: {{ $ref.key }}
{{- end }}
{{- end -}}
