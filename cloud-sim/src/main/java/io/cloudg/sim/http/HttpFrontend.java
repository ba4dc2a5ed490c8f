package io.cloudg.sim.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.cloudg.sim.core.InFlight;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Netty HTTP/1.1 server bound to the loopback interface. Each request is handled on its event loop and answered
 * after the latency the service asks for; while it is ({@link InFlight}: from arrival to the answer written) it
 * counts as in flight, overall and for the account the service's gate attributes it to.
 */
public final class HttpFrontend implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpFrontend.class);

    private final EventLoopGroup boss = new NioEventLoopGroup(1);
    private final EventLoopGroup workers;
    private final Channel channel;

    public HttpFrontend(String host, int port, int threads, HttpService service) throws InterruptedException {
        this(host, port, threads, service, new InFlight());
    }

    /** @param inFlight counts the requests being answered (what the service's gate attributes to an account) */
    public HttpFrontend(String host, int port, int threads, HttpService service, InFlight inFlight)
        throws InterruptedException {
        this.workers = new NioEventLoopGroup(threads);
        ServerBootstrap b = new ServerBootstrap()
            .group(boss, workers)
            .channel(NioServerSocketChannel.class)
            .option(ChannelOption.SO_BACKLOG, 1024)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(new HttpServerCodec())
                        .addLast(new HttpObjectAggregator(32 * 1024 * 1024))
                        .addLast(new HttpServerExpectContinueHandler())
                        .addLast(new Handler(service, inFlight));
                }
            });
        this.channel = b.bind(host, port).sync().channel();
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final HttpService service;
        private final InFlight inFlight;

        Handler(HttpService service, InFlight inFlight) {
            this.service = service;
            this.inFlight = inFlight;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest msg) {
            boolean keepAlive = HttpUtil.isKeepAlive(msg);
            SimResponse r;
            InFlight.Request call = inFlight.begin();
            try {
                SimRequest req = new SimRequest(msg.method().name(), msg.uri(), msg.headers(),
                    ByteBufUtil.getBytes(msg.content()));
                r = service.handle(req);
            } catch (RuntimeException e) {
                LOG.warn("internal error answering {} {}", msg.method(), msg.uri(), e);
                r = SimResponse.status(500).body("text/plain; charset=utf-8", "cloud-sim internal error: " + e).build();
            } finally {
                inFlight.unbind();
            }
            SimResponse response = r;
            if (response.delayNanos() > 0) {
                ctx.executor().schedule(() -> {
                    inFlight.end(call);
                    write(ctx, response, keepAlive);
                }, response.delayNanos(), TimeUnit.NANOSECONDS);
            } else {
                inFlight.end(call);
                write(ctx, response, keepAlive);
            }
        }

        private static void write(ChannelHandlerContext ctx, SimResponse r, boolean keepAlive) {
            if (r.drop() != SimResponse.Drop.NONE) {
                if (r.drop() == SimResponse.Drop.RESET) {
                    ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
                }
                ctx.close();
                return;
            }
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()),
                Unpooled.wrappedBuffer(r.body()));
            for (SimResponse.Header h : r.headers()) {
                res.headers().add(h.name(), h.value());
            }
            res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, r.body().length);
            if (keepAlive) {
                res.headers().set(HttpHeaderNames.CONNECTION, "keep-alive");
                ctx.writeAndFlush(res);
            } else {
                res.headers().set(HttpHeaderNames.CONNECTION, "close");
                ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("connection error", cause);
            ctx.close();
        }
    }
}
