package main

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"net"
	"net/http"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/litmus-dev/litmus/litmus"
	"github.com/litmus-dev/litmus/model"
)

//go:embed web
var webFiles embed.FS

var serveFlags struct {
	addr string
}

func init() {
	register(&Command{
		Name:      "serve",
		UsageLine: "serve [--addr 127.0.0.1:PORT]",
		Short:     "a local web page to check, draw and step through a test",
		Long: `
Serve runs a web page on this machine (its files are inside the litmus
binary: nothing is fetched from the network) where a test can be pasted or
opened from disk, checked under the chosen models, its verdict table read,
the execution of any model drawn in herd's column layout, the operational
interleaving stepped through forwards and backwards with the store buffers
and memory after each step, the fences the verdicts depend on listed, and
the cheapest barriers that keep them suggested (fences --suggest).

Every answer is the command line's own: the page calls check --json,
explain and fences in-process.

Flags:
	--addr A   the address to listen on (default 127.0.0.1:7700); only a
	           loopback address is accepted, since the page runs the
	           checker for whoever can reach it
`,
		SetFlags: func(fs *flag.FlagSet) {
			serveFlags.addr = ""
			fs.StringVar(&serveFlags.addr, "addr", "127.0.0.1:7700", "address to listen on (loopback only)")
		},
		Run: runServe,
	})
}

func runServe(ctx context.Context, env *Env, args []string) int {
	if len(args) != 0 {
		env.Errorf("usage: litmus serve [--addr 127.0.0.1:PORT]")
		return exitUsage
	}
	if err := loopback(serveFlags.addr); err != nil {
		env.Errorf("--addr: %v", err)
		return exitUsage
	}
	ln, err := net.Listen("tcp", serveFlags.addr)
	if err != nil {
		env.Errorf("%v", err)
		return exitUsage
	}
	srv := &http.Server{Handler: newServer(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(env.Stdout, "litmus serve: http://%s/ (Ctrl-C stops it)\n", ln.Addr())
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		env.Errorf("%v", err)
		return exitUsage
	}
	return exitOK
}

// loopback reports an error unless addr's host is a loopback address.
func loopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%s is not a loopback address (127.0.0.1, ::1, localhost)", host)
	}
	return nil
}

// server answers the page's requests. The commands keep their flags in
// package variables, so one request runs a command at a time.
type server struct {
	mu sync.Mutex
}

func newServer() http.Handler {
	s := &server{}
	mux := http.NewServeMux()
	static, _ := fs.Sub(webFiles, "web")
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("POST /api/check", s.check)
	mux.HandleFunc("POST /api/explain", s.explain)
	mux.HandleFunc("POST /api/fences", s.fences)
	return mux
}

// request is what the page sends: the test's source, the models, and for
// explain one model and an optional final state.
type request struct {
	Source string   `json:"source"`
	Models []string `json:"models"`
	State  string   `json:"state"`
	// Suggest asks fences for its advice (fences --suggest).
	Suggest bool `json:"suggest"`
}

func readRequest(w http.ResponseWriter, r *http.Request) (*request, bool) {
	var req request
	body := http.MaxBytesReader(w, r.Body, litmus.MaxSize)
	if err := json.NewDecoder(body).Decode(&req); err != nil {
		http.Error(w, "bad request: "+err.Error(), http.StatusBadRequest)
		return nil, false
	}
	for _, m := range req.Models {
		if strings.ContainsAny(m, " \t\n") || strings.HasPrefix(m, "-") {
			http.Error(w, "bad model name "+m, http.StatusBadRequest)
			return nil, false
		}
	}
	return &req, true
}

// run runs a litmus command in-process on the request's source, given
// as standard input, and returns its output.
func (s *server) run(ctx context.Context, src string, args ...string) (stdout, stderr string, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out, errOut bytes.Buffer
	code = Main(ctx, append(args, "-"), strings.NewReader(src), &out, &errOut)
	return out.String(), errOut.String(), code
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// check answers with check --json's records, one per model.
func (s *server) check(w http.ResponseWriter, r *http.Request) {
	req, ok := readRequest(w, r)
	if !ok {
		return
	}
	args := []string{"check", "--json", "--timeout", "20s"}
	if len(req.Models) > 0 {
		args = append(args, "--model", strings.Join(req.Models, ","))
	}
	out, errOut, code := s.run(r.Context(), req.Source, args...)
	var records []json.RawMessage
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line != "" {
			records = append(records, json.RawMessage(line))
		}
	}
	reply(w, map[string]any{"records": records, "stderr": errOut, "code": code})
}

// explain answers with explain's text, its picture (DOT, and SVG when
// Graphviz is installed) and, under an operational model, the witness's
// steps with the memory and store buffers after each.
func (s *server) explain(w http.ResponseWriter, r *http.Request) {
	req, ok := readRequest(w, r)
	if !ok {
		return
	}
	if len(req.Models) != 1 {
		http.Error(w, "explain takes one model", http.StatusBadRequest)
		return
	}
	args := []string{"explain", "--timeout", "20s", "--model", req.Models[0]}
	if req.State != "" {
		args = append(args, "--state", req.State)
	}
	// With --dot - the picture is explain's standard output and the
	// text its standard error; only when there is nothing to draw is the
	// text asked for again, without the picture.
	dot, text, code := s.run(r.Context(), req.Source, append(args, "--dot", "-")...)
	if code != exitOK {
		out, errOut, c := s.run(r.Context(), req.Source, args...)
		text, code = out+errOut, c
	}
	resp := map[string]any{"text": text, "code": code}
	if dot != "" && strings.HasPrefix(dot, "digraph") {
		resp["dot"] = dot
		if svg, err := renderDot(r.Context(), []byte(dot), "svg"); err == nil {
			resp["svg"] = string(svg)
		} else {
			resp["svg_error"] = err.Error()
		}
		if steps, err := s.steps(r.Context(), req); err == nil && steps != nil {
			resp["steps"] = steps
		}
	}
	reply(w, resp)
}

// fences answers with fences' text, or with --suggest its advice.
func (s *server) fences(w http.ResponseWriter, r *http.Request) {
	req, ok := readRequest(w, r)
	if !ok {
		return
	}
	args := []string{"fences", "--timeout", "20s"}
	if req.Suggest {
		args = append(args, "--suggest")
	}
	if len(req.Models) > 0 {
		args = append(args, "--model", strings.Join(req.Models, ","))
	}
	out, errOut, code := s.run(r.Context(), req.Source, args...)
	reply(w, map[string]any{"text": out + errOut, "code": code})
}

// step is one step of an operational witness as the page shows it.
type step struct {
	Thread  int               `json:"thread"`
	Line    int               `json:"line"`
	Text    string            `json:"text"`
	Kind    string            `json:"kind"` // "instr", "drain", "block"
	Note    string            `json:"note"`
	Memory  map[string]string `json:"memory"`  // after the step: each location written to memory
	Buffers map[int][]string  `json:"buffers"` // after the step: each thread's store buffer, oldest first
}

// steps returns the operational witness of req, step by step, or nil
// under an axiomatic model.
func (s *server) steps(ctx context.Context, req *request) ([]step, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := litmus.Parse("page", []byte(req.Source))
	if err != nil {
		return nil, err
	}
	m, err := model.ParseModel(req.Models[0])
	if err != nil || m.Axiomatic() {
		return nil, err
	}
	opt := model.Options{Timeout: 20 * time.Second}
	if req.State != "" {
		p, err := parseProp(req.State)
		if err != nil {
			return nil, err
		}
		opt.WitnessFor = p
	}
	r, err := model.Check(ctx, t, m, opt)
	if err != nil || r.Witness == nil {
		return nil, err
	}
	var out []step
	replayTrace(r.Witness, func(_ int, st model.Step, rp replayed) {
		sp := step{Thread: st.Thread, Line: st.Pos.Line, Text: st.Text, Kind: "instr", Note: rp.note,
			Memory: maps.Clone(rp.memory), Buffers: map[int][]string{}}
		switch st.Kind {
		case model.StepDrain:
			sp.Kind = "drain"
		case model.StepBlock:
			sp.Kind = "block"
		}
		for th, b := range rp.buffers {
			for _, e := range b {
				sp.Buffers[th] = append(sp.Buffers[th], e.loc+"="+e.val)
			}
		}
		out = append(out, sp)
	})
	return out, nil
}
