"""Consumes a tagtrail queue the way a Python client does with pika.

Usage: pika_consume.py AMQP_URL QUEUE COUNT TIMEOUT_SECONDS

Prints one JSON line per message: the body as json.loads reads it and the
properties pika hands over; exits 0 after COUNT messages, 2 on time-out.
"""
import json
import sys

import pika


def main() -> int:
    url, queue, count, timeout = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    connection = pika.BlockingConnection(pika.URLParameters(url))
    channel = connection.channel()
    got = []

    def on_message(ch, method, properties, body):
        got.append(1)
        print(json.dumps({
            "body": json.loads(body),
            "contentType": properties.content_type,
            "messageId": properties.message_id,
            "deliveryMode": properties.delivery_mode,
        }), flush=True)
        if len(got) >= count:
            ch.stop_consuming()

    timed_out = []

    def on_timeout():
        timed_out.append(1)
        channel.stop_consuming()

    connection.call_later(timeout, on_timeout)
    channel.basic_consume(queue=queue, on_message_callback=on_message, auto_ack=True)
    channel.start_consuming()
    connection.close()
    return 2 if timed_out else 0


if __name__ == "__main__":
    sys.exit(main())
