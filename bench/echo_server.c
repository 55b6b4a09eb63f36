/*
 * Minimal WebSocket echo server on bare libwebsockets: the "bare C" baseline of
 * `make bench` (see docs/benchmarks.md). Every complete text message is sent back
 * unchanged, in order, one lws_write per WRITEABLE callback. Any path, no auth.
 *
 *   cc -O2 -o echo-server echo_server.c $(pkg-config --cflags --libs libwebsockets)
 *   ./echo-server PORT
 */
#include <libwebsockets.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

struct message {
	struct message *next;
	size_t len;
	int binary;
	unsigned char buf[]; /* LWS_PRE + len */
};

struct session {
	struct message *head, *tail; /* messages waiting to be echoed */
	unsigned char *partial;      /* a fragmented message being reassembled */
	size_t partial_len, partial_cap;
	int queued;
	int paused;
};

static volatile sig_atomic_t interrupted;
static struct lws_context *context;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
	lws_cancel_service(context);
}

static int enqueue(struct lws *wsi, struct session *s, const void *data, size_t len, int binary)
{
	struct message *m = malloc(sizeof(*m) + LWS_PRE + len);
	if (!m)
		return -1;
	m->next = NULL;
	m->len = len;
	m->binary = binary;
	memcpy(m->buf + LWS_PRE, data, len);
	if (s->tail)
		s->tail->next = m;
	else
		s->head = m;
	s->tail = m;
	if (++s->queued > 256 && !s->paused) {
		s->paused = 1;
		lws_rx_flow_control(wsi, 0);
	}
	lws_callback_on_writable(wsi);
	return 0;
}

static int callback_echo(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct session *s = user;
	struct message *m;

	switch (reason) {
	case LWS_CALLBACK_ESTABLISHED:
		memset(s, 0, sizeof(*s));
		break;
	case LWS_CALLBACK_RECEIVE: {
		int first = lws_is_first_fragment(wsi), final = lws_is_final_fragment(wsi);
		int binary = lws_frame_is_binary(wsi);
		if (first && final)
			return enqueue(wsi, s, in, len, binary);
		if (first)
			s->partial_len = 0;
		if (s->partial_len + len > s->partial_cap) {
			size_t cap = (s->partial_len + len) * 2;
			unsigned char *p = realloc(s->partial, cap);
			if (!p)
				return -1;
			s->partial = p;
			s->partial_cap = cap;
		}
		memcpy(s->partial + s->partial_len, in, len);
		s->partial_len += len;
		if (final)
			return enqueue(wsi, s, s->partial, s->partial_len, binary);
		break;
	}
	case LWS_CALLBACK_SERVER_WRITEABLE:
		m = s->head;
		if (!m)
			break;
		if (lws_write(wsi, m->buf + LWS_PRE, m->len, m->binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT) < (int)m->len)
			return -1;
		s->head = m->next;
		if (!s->head)
			s->tail = NULL;
		free(m);
		s->queued--;
		if (s->paused && s->queued < 64) {
			s->paused = 0;
			lws_rx_flow_control(wsi, 1);
		}
		if (s->head)
			lws_callback_on_writable(wsi);
		break;
	case LWS_CALLBACK_CLOSED:
		while ((m = s->head)) {
			s->head = m->next;
			free(m);
		}
		s->tail = NULL;
		free(s->partial);
		s->partial = NULL;
		break;
	default:
		break;
	}
	return 0;
}

static const struct lws_protocols protocols[] = {
	{ "echo", callback_echo, sizeof(struct session), 65536, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 } /* 4.1.6 has no LWS_PROTOCOL_LIST_TERM */
};

int main(int argc, char **argv)
{
	struct lws_context_creation_info info;

	memset(&info, 0, sizeof(info));
	info.port = argc > 1 ? atoi(argv[1]) : 7681;
	info.iface = "127.0.0.1";
	info.protocols = protocols;
	info.fd_limit_per_thread = 4096;
	info.gid = -1;
	info.uid = -1;
	lws_set_log_level(LLL_ERR, NULL);
	context = lws_create_context(&info);
	if (!context)
		return 1;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!interrupted)
		if (lws_service(context, 0) < 0)
			break;
	lws_context_destroy(context);
	return 0;
}
