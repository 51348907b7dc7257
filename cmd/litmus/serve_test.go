package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const mpSource = `C MP
{}

P0(int *x, int *y)
{
	WRITE_ONCE(*x, 1);
	WRITE_ONCE(*y, 1);
}

P1(int *x, int *y)
{
	int r0;
	int r1;

	r0 = READ_ONCE(*y);
	r1 = READ_ONCE(*x);
}

exists (1:r0=1 /\ 1:r1=0)
`

// sbMbs is SB with smp_mb() on both sides: the advice keeps both.
const sbMbs = `C SB+mbs
{}

P0(int *x, int *y)
{
	int r0;

	WRITE_ONCE(*x, 1);
	smp_mb();
	r0 = READ_ONCE(*y);
}

P1(int *x, int *y)
{
	int r0;

	WRITE_ONCE(*y, 1);
	smp_mb();
	r0 = READ_ONCE(*x);
}

exists (0:r0=0 /\ 1:r0=0)
`

func postJSON(t *testing.T, url string, body any, out any) {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(out))
}

// The page's API answers with the command line's own results: check's
// JSON records, explain's text, picture and steps, fences' text.
func TestServeAPI(t *testing.T) {
	srv := httptest.NewServer(newServer())
	defer srv.Close()

	var chk struct {
		Records []jsonResult `json:"records"`
		Code    int          `json:"code"`
	}
	postJSON(t, srv.URL+"/api/check", request{Source: mpSource, Models: []string{"tso", "lkmm"}}, &chk)
	require.Len(t, chk.Records, 2)
	require.Equal(t, "tso", chk.Records[0].Model)
	require.Equal(t, "Never", chk.Records[0].Observation)
	require.Equal(t, "lkmm", chk.Records[1].Model)
	require.Equal(t, "Sometimes", chk.Records[1].Observation)

	var ex struct {
		Text  string `json:"text"`
		Dot   string `json:"dot"`
		Steps []step `json:"steps"`
	}
	postJSON(t, srv.URL+"/api/explain", request{Source: mpSource, Models: []string{"pso"}}, &ex)
	require.Contains(t, ex.Text, "An execution reaching the condition")
	require.Contains(t, ex.Dot, "digraph")
	require.NotEmpty(t, ex.Steps)
	// Stepping shows the store buffers: under PSO P0's stores are
	// buffered, then drained out of order.
	buffered := false
	for _, s := range ex.Steps {
		if len(s.Buffers[0]) > 0 {
			buffered = true
		}
	}
	require.True(t, buffered, "no step shows P0's store buffer: %+v", ex.Steps)
	last := ex.Steps[len(ex.Steps)-1]
	require.Equal(t, "1", last.Memory["y"])

	ex.Steps = nil
	postJSON(t, srv.URL+"/api/explain", request{Source: mpSource, Models: []string{"lkmm"}}, &ex)
	require.Contains(t, ex.Text, "The first one that does:")
	require.Contains(t, ex.Dot, "MP under lkmm: Sometimes")
	require.Empty(t, ex.Steps, "an axiomatic model has no steps")

	var fe struct {
		Text string `json:"text"`
	}
	postJSON(t, srv.URL+"/api/fences", request{Source: mpSource, Models: []string{"lkmm"}}, &fe)
	require.NotEmpty(t, fe.Text)
	fe.Text = ""
	postJSON(t, srv.URL+"/api/fences", request{Source: sbMbs, Models: []string{"lkmm", "tso"}, Suggest: true}, &fe)
	require.Contains(t, fe.Text, "smp_mb()", "the advice names the barriers:\n%s", fe.Text)

	resp, err := http.Get(srv.URL + "/")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

// serve listens on loopback addresses only.
func TestServeLoopbackOnly(t *testing.T) {
	_, errOut, code := run(t, "serve", "--addr", "0.0.0.0:0")
	require.Equal(t, exitUsage, code)
	require.Contains(t, errOut, "is not a loopback address")
}

// A real browser loads the page, checks MP under tso and lkmm and draws
// the LKMM's execution: the verdict table and the picture are in the
// page, and a screenshot goes to the test's artifacts (go test
// -artifacts keeps it). CI installs Debian's chromium; without one the
// test skips.
func TestServePageInBrowser(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("no headless Chromium installed (Debian: apt-get install chromium)")
	}
	srv := httptest.NewServer(newServer())
	defer srv.Close()
	url := srv.URL + "/?example=MP&models=tso,lkmm&autorun=1&explain=lkmm"
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	chrome := func(args ...string) []byte {
		args = append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + t.TempDir(),
			"--virtual-time-budget=20000", "--window-size=1400,1100"}, args...)
		out, err := exec.CommandContext(ctx, browser, append(args, url)...).Output()
		require.NoError(t, err, "%s %v", browser, args)
		return out
	}
	dom := string(chrome("--dump-dom"))
	require.Regexp(t, regexp.MustCompile(`<tr data-model="tso"><td>tso</td><td class="verdict Never[^"]*">Never</td>`), dom)
	require.Regexp(t, regexp.MustCompile(`<tr data-model="lkmm"><td>lkmm</td><td class="verdict Sometimes[^"]*">Sometimes</td>`), dom)
	require.Contains(t, dom, "Under lkmm")
	if _, err := exec.LookPath("dot"); err == nil {
		require.Contains(t, dom, "<svg", "the LKMM's execution is drawn")
		require.Contains(t, dom, "MP under lkmm: Sometimes")
	}
	shot := filepath.Join(t.ArtifactDir(), "serve-mp.png")
	chrome("--screenshot=" + shot)
	info, err := os.Stat(shot)
	require.NoError(t, err)
	require.Positive(t, info.Size())
	t.Logf("screenshot: %s", shot)
}
