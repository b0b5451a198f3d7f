package programados

import (
	"context"
	"fmt"
	"log/slog"
	"mime"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"
)

// Mensaje is one e-mail: plain text, to every recipient.
type Mensaje struct {
	Para   []string
	Asunto string
	Texto  string
}

// Correo sends the e-mails with the link to a run's file: SES in AWS
// (CorreoSES), a folder of .eml files plus a log line locally (CorreoLocal).
type Correo interface {
	Enviar(ctx context.Context, m Mensaje) error
}

// CorreoLocal writes each message as an .eml file (RFC 5322, readable by
// any mail client) in a git-ignored folder and logs it.
type CorreoLocal struct {
	Dir       string
	Remitente string
	Log       *slog.Logger
	n         atomic.Int64
}

// Enviar writes the message file.
func (c *CorreoLocal) Enviar(_ context.Context, m Mensaje) error {
	if err := os.MkdirAll(c.Dir, 0o750); err != nil {
		return fmt.Errorf("programados: correo local: %w", err)
	}
	ahora := time.Now().UTC()
	nombre := fmt.Sprintf("%s-%d-%d.eml", ahora.Format("20060102T150405.000000000"), os.Getpid(), c.n.Add(1))
	p := filepath.Join(c.Dir, nombre)
	if err := os.WriteFile(p, []byte(formatearEML(c.Remitente, m, ahora)), 0o640); err != nil {
		return fmt.Errorf("programados: correo local: %w", err)
	}
	if c.Log != nil {
		c.Log.Info("correo local escrito", "archivo", p, "para", strings.Join(m.Para, ", "), "asunto", m.Asunto)
	}
	return nil
}

// formatearEML is the message as an RFC 5322 text (UTF-8 body, the
// subject encoded as RFC 2047).
func formatearEML(de string, m Mensaje, fecha time.Time) string {
	var b strings.Builder
	b.WriteString("From: " + de + "\r\n")
	b.WriteString("To: " + strings.Join(m.Para, ", ") + "\r\n")
	b.WriteString("Subject: " + mime.QEncoding.Encode("utf-8", m.Asunto) + "\r\n")
	b.WriteString("Date: " + fecha.Format(time.RFC1123Z) + "\r\n")
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	b.WriteString(strings.ReplaceAll(m.Texto, "\n", "\r\n"))
	return b.String()
}

// CorreoLog only logs the message (AWS without a configured sender).
type CorreoLog struct{ Log *slog.Logger }

// Enviar logs the message.
func (c CorreoLog) Enviar(_ context.Context, m Mensaje) error {
	c.Log.Warn("correo no enviado: sin remitente configurado (ERP_CORREO_REMITENTE)", "para", strings.Join(m.Para, ", "),
		"asunto", m.Asunto, "texto", m.Texto)
	return nil
}
