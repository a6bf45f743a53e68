// Package deploy holds the container image and the Kubernetes manifests of
// a distributed run; its test checks the manifests against the Kubernetes
// API's own types (a field the API does not have is an error) and the
// run's configuration against the trainer's checks.
package deploy

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/sliderzero/sliderzero/train"
)

// strict decodes one manifest into v, refusing unknown fields.
func strict(t *testing.T, name string, doc []byte, v any) {
	t.Helper()
	js, err := yaml.YAMLToJSON(doc)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Errorf("%s: %v", name, err)
	}
}

func TestManifests(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("k8s", "*.yaml"))
	if len(files) < 4 {
		t.Fatalf("manifests %v", files)
	}
	kinds := map[string]int{}
	var deployments []appsv1.Deployment
	var config corev1.ConfigMap
	claims := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range bytes.Split(data, []byte("\n---\n")) {
			name := f + " document " + string(rune('1'+i))
			var meta struct{ Kind, APIVersion string }
			if err := yaml.Unmarshal(doc, &meta); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			kinds[meta.Kind]++
			switch meta.Kind {
			case "Deployment":
				var d appsv1.Deployment
				strict(t, name, doc, &d)
				deployments = append(deployments, d)
			case "PersistentVolumeClaim":
				var c corev1.PersistentVolumeClaim
				strict(t, name, doc, &c)
				claims[c.Name] = true
			case "ConfigMap":
				strict(t, name, doc, &config)
			default:
				t.Errorf("%s: unexpected kind %q", name, meta.Kind)
			}
		}
	}
	if kinds["Deployment"] != 2 || kinds["ConfigMap"] != 1 || kinds["PersistentVolumeClaim"] != 2 {
		t.Errorf("kinds %v", kinds)
	}
	for _, d := range deployments {
		sel := d.Spec.Selector.MatchLabels
		for k, v := range sel {
			if d.Spec.Template.Labels[k] != v {
				t.Errorf("%s: the selector %s=%s does not match the pods", d.Name, k, v)
			}
		}
		c := d.Spec.Template.Spec.Containers[0]
		if len(c.Args) == 0 {
			t.Errorf("%s: no command", d.Name)
		}
		for _, v := range d.Spec.Template.Spec.Volumes {
			if v.PersistentVolumeClaim != nil && !claims[v.PersistentVolumeClaim.ClaimName] {
				t.Errorf("%s: claim %s is not declared", d.Name, v.PersistentVolumeClaim.ClaimName)
			}
		}
		if c.Args[0] == "train" {
			if *d.Spec.Replicas != 1 || d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
				t.Errorf("the trainer must be one pod, replaced not rolled: %d replicas, %s", *d.Spec.Replicas, d.Spec.Strategy.Type)
			}
			if !strings.Contains(strings.Join(c.Args, " "), "--selfplay external") {
				t.Errorf("the trainer does not take external self-play: %v", c.Args)
			}
		}
	}
	// The run's configuration passes the trainer's checks.
	path := filepath.Join(t.TempDir(), "config.json")
	os.WriteFile(path, []byte(config.Data["config.json"]), 0o644)
	if _, err := train.LoadConfig(path); err != nil {
		t.Errorf("the ConfigMap's config.json: %v", err)
	}
}
