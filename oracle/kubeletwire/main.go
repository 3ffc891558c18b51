// Command kubeletwire is the kubelet's side of the node protocols, built on upstream's own generated code
// (k8s.io/kubelet v0.37.2), to prove that dra4j's Java servers and clients are wire-compatible with a real
// kubelet. It has two modes:
//
//	kubeletwire dra -registration SOCKET [-claim NS/NAME/UID]...
//	    registers the DRA plugin behind SOCKET as the kubelet does (GetInfo, NotifyRegistrationStatus), then calls
//	    NodePrepareResources and NodeUnprepareResources for the claims over v1 and v1beta1, and
//	    v1.DRAResourceHealth/NodeWatchResources and v1alpha1.DRAResourceHealth/NodeWatchResources, each when the
//	    plugin advertises it (v1alpha1 read through upstream's V1Alpha1ClientWrapper, as the kubelet reads it);
//	kubeletwire kubelet -dir DIR
//	    serves DIR/kubelet.sock (v1beta1.Registration), and for the first device plugin that registers dials it
//	    back, calls GetDevicePluginOptions, reads the first ListAndWatch list, GetPreferredAllocation (when
//	    offered), Allocate and PreStartContainer (when required).
//
// Each mode prints one JSON object: every message received, in protojson with proto field names, so that the Java
// side checks what upstream's decoder made of its bytes. It decides nothing itself beyond what the kubelet would
// refuse on the wire (an unsupported version).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	deviceplugin "k8s.io/kubelet/pkg/apis/deviceplugin/v1beta1"
	healthv1 "k8s.io/kubelet/pkg/apis/dra-health/v1"
	healthv1alpha1 "k8s.io/kubelet/pkg/apis/dra-health/v1alpha1"
	drav1 "k8s.io/kubelet/pkg/apis/dra/v1"
	drav1beta1 "k8s.io/kubelet/pkg/apis/dra/v1beta1"
	registration "k8s.io/kubelet/pkg/apis/pluginregistration/v1"
)

// The kubelet's timeouts: dialing a registration socket, GetInfo and NotifyRegistrationStatus
// (pkg/kubelet/pluginmanager/operationexecutor/operation_generator.go), a DRA call (pkg/kubelet/cm/dra/plugin
// defaultClientCallTimeout), dialing a device plugin back (pkg/kubelet/cm/devicemanager/plugin/v1beta1/client.go).
const (
	registrationDialTimeout = 10 * time.Second
	getInfoTimeout          = time.Second
	notifyTimeout           = 5 * time.Second
	draCallTimeout          = 45 * time.Second
	dialBackTimeout         = 10 * time.Second
	registerDeadline        = 60 * time.Second
)

type output map[string]json.RawMessage

func (o output) put(key string, m proto.Message) {
	b, err := protojson.MarshalOptions{UseProtoNames: true, EmitUnpopulated: true}.Marshal(m)
	if err != nil {
		o.fail(key, err)
		return
	}
	o[key] = b
}

func (o output) fail(key string, err error) {
	b, _ := json.Marshal(map[string]string{"error": err.Error()})
	o[key] = b
}

func (o output) print() {
	b, _ := json.Marshal(map[string]json.RawMessage(o))
	fmt.Println(string(b))
}

type claimFlags []string

func (c *claimFlags) String() string     { return strings.Join(*c, ",") }
func (c *claimFlags) Set(v string) error { *c = append(*c, v); return nil }

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: kubeletwire dra|kubelet ...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "dra":
		err = draMode(os.Args[2:])
	case "kubelet":
		err = kubeletMode(os.Args[2:])
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "kubeletwire:", err)
		os.Exit(1)
	}
}

// dialDRA is the kubelet's connection to a DRA plugin's endpoint (dra_plugin_manager.go add): created once,
// connected on demand, no TLS.
func dialDRA(socket string) (*grpc.ClientConn, error) {
	return grpc.NewClient("unix:"+socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
}

// dialBlocking is the kubelet's blocking dial of a registration socket (operation_generator.go dial) and, with
// authority "localhost", of a device plugin's socket (devicemanager/plugin/v1beta1/client.go dial).
func dialBlocking(socket string, timeout time.Duration, authority string) (*grpc.ClientConn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	options := []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithBlock(),
		grpc.WithContextDialer(func(ctx context.Context, addr string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", addr)
		}),
	}
	if authority != "" {
		options = append(options, grpc.WithAuthority(authority))
	}
	//nolint:staticcheck // SA1019: the kubelet still dials these sockets with grpc.DialContext and WithBlock.
	return grpc.DialContext(ctx, socket, options...)
}

func draMode(args []string) error {
	fs := flag.NewFlagSet("dra", flag.ContinueOnError)
	socket := fs.String("registration", "", "the plugin's registration socket")
	var claims claimFlags
	fs.Var(&claims, "claim", "NS/NAME/UID of a claim to prepare (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	out := output{}
	defer out.print()

	reg, err := dialBlocking(*socket, registrationDialTimeout, "")
	if err != nil {
		return err
	}
	defer reg.Close()
	ctx, cancel := context.WithTimeout(context.Background(), getInfoTimeout)
	info, err := registration.NewRegistrationClient(reg).GetInfo(ctx, &registration.InfoRequest{})
	cancel()
	if err != nil {
		out.fail("info", err)
		return nil
	}
	out.put("info", info)
	ctx, cancel = context.WithTimeout(context.Background(), notifyTimeout)
	status, err := registration.NewRegistrationClient(reg).NotifyRegistrationStatus(ctx,
		&registration.RegistrationStatus{PluginRegistered: true})
	cancel()
	if err != nil {
		out.fail("notify", err)
	} else {
		out.put("notify", status)
	}

	conn, err := dialDRA(info.Endpoint)
	if err != nil {
		return err
	}
	defer conn.Close()
	var v1Claims []*drav1.Claim
	var v1beta1Claims []*drav1beta1.Claim
	for _, c := range claims {
		parts := strings.SplitN(c, "/", 3)
		if len(parts) != 3 {
			return fmt.Errorf("claim %q is not NS/NAME/UID", c)
		}
		v1Claims = append(v1Claims, &drav1.Claim{Namespace: parts[0], Name: parts[1], Uid: parts[2]})
		v1beta1Claims = append(v1beta1Claims, &drav1beta1.Claim{Namespace: parts[0], Name: parts[1], Uid: parts[2]})
	}
	v1 := drav1.NewDRAPluginClient(conn)
	v1beta1 := drav1beta1.NewDRAPluginClient(conn)
	call := func(key string, f func(context.Context) (proto.Message, error)) {
		ctx, cancel := context.WithTimeout(context.Background(), draCallTimeout)
		defer cancel()
		m, err := f(ctx)
		if err != nil {
			out.fail(key, err)
			return
		}
		out.put(key, m)
	}
	call("v1_prepare", func(ctx context.Context) (proto.Message, error) {
		return v1.NodePrepareResources(ctx, &drav1.NodePrepareResourcesRequest{Claims: v1Claims})
	})
	call("v1beta1_prepare", func(ctx context.Context) (proto.Message, error) {
		return v1beta1.NodePrepareResources(ctx, &drav1beta1.NodePrepareResourcesRequest{Claims: v1beta1Claims})
	})
	call("v1beta1_unprepare", func(ctx context.Context) (proto.Message, error) {
		return v1beta1.NodeUnprepareResources(ctx, &drav1beta1.NodeUnprepareResourcesRequest{Claims: v1beta1Claims})
	})
	call("v1_unprepare", func(ctx context.Context) (proto.Message, error) {
		return v1.NodeUnprepareResources(ctx, &drav1.NodeUnprepareResourcesRequest{Claims: v1Claims})
	})
	for _, s := range info.SupportedVersions {
		// The first message of the stream the kubelet keeps open (pkg/kubelet/cm/dra/manager.go
		// HandleWatchResourcesStream), opened as pkg/kubelet/cm/dra/plugin DRAPlugin.NodeWatchResources does for
		// the version it chose.
		switch s {
		case healthv1.DRAResourceHealthService:
			call("health_v1", func(ctx context.Context) (proto.Message, error) {
				stream, err := healthv1.NewDRAResourceHealthClient(conn).NodeWatchResources(ctx,
					&healthv1.NodeWatchResourcesRequest{})
				if err != nil {
					return nil, err
				}
				return stream.Recv()
			})
		case healthv1alpha1.DRAResourceHealthService:
			call("health_v1alpha1", func(ctx context.Context) (proto.Message, error) {
				stream, err := healthv1.V1Alpha1ClientWrapper{Client: healthv1alpha1.NewDRAResourceHealthClient(conn)}.
					NodeWatchResources(ctx, &healthv1.NodeWatchResourcesRequest{})
				if err != nil {
					return nil, err
				}
				return stream.Recv()
			})
		}
	}
	return nil
}

// registrationServer is the kubelet's v1beta1.Registration service (pkg/kubelet/cm/devicemanager/plugin/v1beta1
// server.go Register): it refuses an unsupported version and hands the request on.
type registrationServer struct {
	deviceplugin.UnimplementedRegistrationServer
	requests chan *deviceplugin.RegisterRequest
}

func (s *registrationServer) Register(_ context.Context, r *deviceplugin.RegisterRequest) (*deviceplugin.Empty, error) {
	supported := false
	for _, v := range deviceplugin.SupportedVersions {
		if r.Version == v {
			supported = true
		}
	}
	if !supported {
		return nil, fmt.Errorf("requested API version %q is not supported by kubelet. Supported versions are %q",
			r.Version, deviceplugin.SupportedVersions)
	}
	select {
	case s.requests <- r:
	default:
	}
	return &deviceplugin.Empty{}, nil
}

func kubeletMode(args []string) error {
	fs := flag.NewFlagSet("kubelet", flag.ContinueOnError)
	dir := fs.String("dir", "", "the device-plugins directory to serve kubelet.sock in")
	if err := fs.Parse(args); err != nil {
		return err
	}
	socket := filepath.Join(*dir, "kubelet.sock")
	_ = os.Remove(socket)
	lis, err := net.Listen("unix", socket)
	if err != nil {
		return err
	}
	server := grpc.NewServer()
	reg := &registrationServer{requests: make(chan *deviceplugin.RegisterRequest, 1)}
	deviceplugin.RegisterRegistrationServer(server, reg)
	go func() { _ = server.Serve(lis) }()
	defer server.Stop()

	out := output{}
	defer out.print()
	var req *deviceplugin.RegisterRequest
	select {
	case req = <-reg.requests:
	case <-time.After(registerDeadline):
		return errors.New("no device plugin registered")
	}
	out.put("register", req)

	conn, err := dialBlocking(filepath.Join(*dir, req.Endpoint), dialBackTimeout, "localhost")
	if err != nil {
		return err
	}
	defer conn.Close()
	plugin := deviceplugin.NewDevicePluginClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), dialBackTimeout)
	defer cancel()
	options, err := plugin.GetDevicePluginOptions(ctx, &deviceplugin.Empty{})
	if err != nil {
		out.fail("options", err)
		return nil
	}
	out.put("options", options)
	stream, err := plugin.ListAndWatch(ctx, &deviceplugin.Empty{})
	if err != nil {
		out.fail("list_and_watch", err)
		return nil
	}
	list, err := stream.Recv()
	if err != nil {
		out.fail("list_and_watch", err)
		return nil
	}
	out.put("list_and_watch", list)
	var healthy []string
	for _, d := range list.Devices {
		if d.Health == deviceplugin.Healthy {
			healthy = append(healthy, d.ID)
		}
	}
	if len(healthy) == 0 {
		return nil
	}
	if options.GetPreferredAllocationAvailable {
		size := min(2, len(healthy))
		p, err := plugin.GetPreferredAllocation(ctx, &deviceplugin.PreferredAllocationRequest{
			ContainerRequests: []*deviceplugin.ContainerPreferredAllocationRequest{{
				AvailableDeviceIDs: healthy, MustIncludeDeviceIDs: healthy[len(healthy)-1:], AllocationSize: int32(size),
			}}})
		if err != nil {
			out.fail("preferred", err)
		} else {
			out.put("preferred", p)
		}
	}
	a, err := plugin.Allocate(ctx, &deviceplugin.AllocateRequest{
		ContainerRequests: []*deviceplugin.ContainerAllocateRequest{{DevicesIds: healthy[:1]}}})
	if err != nil {
		out.fail("allocate", err)
	} else {
		out.put("allocate", a)
	}
	if options.PreStartRequired {
		p, err := plugin.PreStartContainer(ctx, &deviceplugin.PreStartContainerRequest{DevicesIds: healthy[:1]})
		if err != nil {
			out.fail("prestart", err)
		} else {
			out.put("prestart", p)
		}
	}
	return nil
}
