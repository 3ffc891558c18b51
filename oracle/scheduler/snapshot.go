package main

// Reading a snapshot: the objects `kubectl get ... -o yaml` prints, decoded into the upstream types and defaulted
// as the API server defaults them on create. Everything here is glue around upstream code; each step names the
// upstream code it stands in for.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	schedulingv1beta1 "k8s.io/api/scheduling/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/resource/install"
	_ "k8s.io/kubernetes/pkg/apis/scheduling/install"
)

// snapshot holds the objects of the kinds the scheduler reads, in input order.
type snapshot struct {
	name            string
	nodes           []*v1.Node
	pods            []*v1.Pod
	priorityClasses []*schedulingv1.PriorityClass
	classes         []*resourceapi.DeviceClass
	slices          []*resourceapi.ResourceSlice
	claims          []*resourceapi.ResourceClaim
	templates       []*resourceapi.ResourceClaimTemplate
	taintRules      []*resourceapi.DeviceTaintRule
	// PodGroups (scheduling.k8s.io/v1beta1), read by GangScheduling through the scheduler cache.
	podGroups []*schedulingv1beta1.PodGroup
	// Read by PodTopologySpread's system default constraints (helper.DefaultSelector) only.
	services     []*v1.Service
	rcs          []*v1.ReplicationController
	replicaSets  []*appsv1.ReplicaSet
	statefulSets []*appsv1.StatefulSet
}

// readSnapshot decodes a YAML or JSON stream of documents, each an object or a List of objects. Kinds the
// scheduler does not read are skipped.
func readSnapshot(name string, r io.Reader) (*snapshot, error) {
	s := &snapshot{name: name}
	dec := utilyaml.NewYAMLOrJSONDecoder(r, 4096)
	for doc := 0; ; doc++ {
		var raw map[string]any
		if err := dec.Decode(&raw); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", name, doc, err)
		}
		if raw == nil {
			continue
		}
		if err := s.add(raw, fmt.Sprintf("%s: document %d", name, doc)); err != nil {
			return nil, err
		}
	}
	return s, s.complete()
}

func (s *snapshot) add(raw map[string]any, where string) error {
	if kind, _ := raw["kind"].(string); strings.HasSuffix(kind, "List") {
		items, _ := raw["items"].([]any)
		for i, item := range items {
			m, ok := item.(map[string]any)
			if !ok {
				return fmt.Errorf("%s: items[%d]: not an object", where, i)
			}
			if err := s.add(m, fmt.Sprintf("%s: items[%d]", where, i)); err != nil {
				return err
			}
		}
		return nil
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(data, nil, nil)
	if err != nil {
		if runtime.IsNotRegisteredError(err) {
			return nil
		}
		return fmt.Errorf("%s: %w", where, err)
	}
	// The API server's defaulting on create (registered by the install packages above).
	legacyscheme.Scheme.Default(obj)
	switch o := obj.(type) {
	case *v1.Node:
		s.nodes = append(s.nodes, o)
	case *v1.Pod:
		s.pods = append(s.pods, o)
	case *schedulingv1.PriorityClass:
		s.priorityClasses = append(s.priorityClasses, o)
	case *resourceapi.DeviceClass:
		s.classes = append(s.classes, o)
	case *resourceapi.ResourceSlice:
		s.slices = append(s.slices, o)
	case *resourceapi.ResourceClaim:
		s.claims = append(s.claims, o)
	case *resourceapi.ResourceClaimTemplate:
		s.templates = append(s.templates, o)
	case *resourceapi.DeviceTaintRule:
		s.taintRules = append(s.taintRules, o)
	case *schedulingv1beta1.PodGroup:
		s.podGroups = append(s.podGroups, o)
	case *v1.Service:
		s.services = append(s.services, o)
	case *v1.ReplicationController:
		s.rcs = append(s.rcs, o)
	case *appsv1.ReplicaSet:
		s.replicaSets = append(s.replicaSets, o)
	case *appsv1.StatefulSet:
		s.statefulSets = append(s.statefulSets, o)
	}
	return nil
}

// complete fills in what the API server and its admission plugins set on create (namespace, uid, priority), then
// runs the resourceclaim controller's claim creation for template references.
func (s *snapshot) complete() error {
	for _, p := range s.pods {
		defaultMeta(&p.ObjectMeta, "Pod", true)
		if err := s.admitPriority(p); err != nil {
			return err
		}
	}
	for _, c := range s.claims {
		defaultMeta(&c.ObjectMeta, "ResourceClaim", true)
	}
	for _, t := range s.templates {
		defaultMeta(&t.ObjectMeta, "ResourceClaimTemplate", true)
	}
	for _, n := range s.nodes {
		defaultMeta(&n.ObjectMeta, "Node", false)
	}
	for _, o := range s.slices {
		defaultMeta(&o.ObjectMeta, "ResourceSlice", false)
	}
	for _, o := range s.classes {
		defaultMeta(&o.ObjectMeta, "DeviceClass", false)
	}
	for _, o := range s.services {
		defaultMeta(&o.ObjectMeta, "Service", true)
	}
	for _, o := range s.rcs {
		defaultMeta(&o.ObjectMeta, "ReplicationController", true)
	}
	for _, o := range s.replicaSets {
		defaultMeta(&o.ObjectMeta, "ReplicaSet", true)
	}
	for _, o := range s.statefulSets {
		defaultMeta(&o.ObjectMeta, "StatefulSet", true)
	}
	for _, o := range s.taintRules {
		defaultMeta(&o.ObjectMeta, "DeviceTaintRule", false)
	}
	for _, o := range s.podGroups {
		defaultMeta(&o.ObjectMeta, "PodGroup", true)
		if err := s.admitPodGroup(o); err != nil {
			return err
		}
	}
	return s.createTemplateClaims()
}

// defaultMeta: the request's namespace ("default" as kubectl sends it) and a uid as the API server assigns one
// (made deterministic from kind and name).
func defaultMeta(m *metav1.ObjectMeta, kind string, namespaced bool) {
	if namespaced && m.Namespace == "" {
		m.Namespace = metav1.NamespaceDefault
	}
	if m.UID == "" {
		m.UID = types.UID(fmt.Sprintf("uid-%s-%s-%s", strings.ToLower(kind), m.Namespace, m.Name))
	}
	if m.ResourceVersion == "" {
		m.ResourceVersion = "1"
	}
}

// admitPriority mirrors the Priority admission plugin (plugin/pkg/admission/priority, admitPod): spec.priority
// from the named PriorityClass, or from the global default class, or 0.
func (s *snapshot) admitPriority(p *v1.Pod) error {
	if p.Spec.Priority != nil {
		return nil
	}
	value, err := s.establishPriority(p.Spec.PriorityClassName)
	if err != nil {
		return fmt.Errorf("pod %s/%s: %w", p.Namespace, p.Name, err)
	}
	p.Spec.Priority = &value
	return nil
}

// admitPodGroup mirrors the Priority admission plugin's admitPodGroup (GenericWorkload): the PodGroup's
// spec.priority from its PriorityClass as for a pod.
func (s *snapshot) admitPodGroup(pg *schedulingv1beta1.PodGroup) error {
	if pg.Spec.Priority != nil {
		return nil
	}
	value, err := s.establishPriority(pg.Spec.PriorityClassName)
	if err != nil {
		return fmt.Errorf("PodGroup %s/%s: %w", pg.Namespace, pg.Name, err)
	}
	pg.Spec.Priority = &value
	return nil
}

// establishPriority mirrors the plugin's establishPriority: the named class's value, without a name the global
// default class's, or 0.
func (s *snapshot) establishPriority(className string) (int32, error) {
	if className != "" {
		for _, pc := range s.priorityClasses {
			if pc.Name == className {
				return pc.Value, nil
			}
		}
		return 0, fmt.Errorf("no PriorityClass with name %s was found", className)
	}
	var value int32
	for _, pc := range s.priorityClasses {
		if pc.GlobalDefault {
			value = pc.Value
		}
	}
	return value, nil
}

// createTemplateClaims mirrors the resourceclaim controller's handleClaim (pkg/controller/resourceclaim,
// k8s.io/kubernetes v1.37.2): a claim per template reference without one, with its generateName, owner
// reference, annotations and labels, recorded in the pod's status.resourceClaimStatuses. Where the API server
// appends five random characters to generateName, the oracle appends dra4j's deterministic stand-in
// (dra4j-sim Names.generate) so both sides name the claims alike.
func (s *snapshot) createTemplateClaims() error {
	taken := map[string]bool{}
	for _, c := range s.claims {
		taken[c.Namespace+"/"+c.Name] = true
	}
	for _, pod := range s.pods {
		for _, pc := range pod.Spec.ResourceClaims {
			if pc.ResourceClaimTemplateName == nil || claimStatusName(pod, pc.Name) != nil {
				continue
			}
			var template *resourceapi.ResourceClaimTemplate
			for _, t := range s.templates {
				if t.Namespace == pod.Namespace && t.Name == *pc.ResourceClaimTemplateName {
					template = t
				}
			}
			if template == nil {
				continue
			}
			isTrue := true
			annotations := maps.Clone(template.Spec.ObjectMeta.Annotations)
			if annotations == nil {
				annotations = make(map[string]string)
			}
			annotations[resourceapi.PodResourceClaimAnnotation] = pc.Name
			generateName := pod.Name + "-" + pc.Name + "-"
			maxBaseLen := 57
			if len(generateName) > maxBaseLen {
				generateName = pod.Name[0:len(pod.Name)*maxBaseLen/len(generateName)] +
					"-" +
					pc.Name[0:len(pc.Name)*maxBaseLen/len(generateName)]
			}
			claim := &resourceapi.ResourceClaim{
				ObjectMeta: metav1.ObjectMeta{
					GenerateName: generateName,
					Namespace:    pod.Namespace,
					OwnerReferences: []metav1.OwnerReference{{
						APIVersion: "v1", Kind: "Pod", Name: pod.Name, UID: pod.UID, Controller: &isTrue,
					}},
					Annotations: annotations,
					Labels:      template.Spec.ObjectMeta.Labels,
				},
				Spec: *template.Spec.Spec.DeepCopy(),
			}
			claim.Name = generatedName(pod.Namespace, generateName, func(n string) bool { return taken[pod.Namespace+"/"+n] })
			taken[pod.Namespace+"/"+claim.Name] = true
			defaultMeta(&claim.ObjectMeta, "ResourceClaim", true)
			s.claims = append(s.claims, claim)
			name := claim.Name
			pod.Status.ResourceClaimStatuses = append(pod.Status.ResourceClaimStatuses,
				v1.PodResourceClaimStatus{Name: pc.Name, ResourceClaimName: &name})
		}
	}
	return nil
}

func claimStatusName(pod *v1.Pod, podClaimName string) *string {
	for _, st := range pod.Status.ResourceClaimStatuses {
		if st.Name == podClaimName {
			return st.ResourceClaimName
		}
	}
	return nil
}

const alphanums = "bcdfghjklmnpqrstvwxz2456789"

// generatedName stands in for the API server's names.SimpleNameGenerator (base cut to 58 characters, then five
// characters of its alphabet): the characters come from an FNV-1a hash of namespace, base and attempt, as
// dra4j-sim's Names.generate takes them.
func generatedName(namespace, base string, taken func(string) bool) string {
	if len(base) > 58 {
		base = base[:58]
	}
	for attempt := 0; ; attempt++ {
		h := fnv.New64a()
		h.Write([]byte(fmt.Sprintf("%s/%s/%d", namespace, base, attempt)))
		v := h.Sum64()
		var b bytes.Buffer
		for i := 0; i < 5; i++ {
			b.WriteByte(alphanums[v%uint64(len(alphanums))])
			v /= uint64(len(alphanums))
		}
		if name := base + b.String(); !taken(name) {
			return name
		}
	}
}
