const fs=require('fs');const {SourceMapConsumer}=require('source-map-js');const zlib=require('zlib');
const f=process.argv[2];const code=fs.readFileSync('dist/assets/'+f,'utf8');const map=JSON.parse(fs.readFileSync('dist-meta/assets/'+f+'.map'));
const ratio=zlib.gzipSync(code,{level:9}).length/code.length;
const c=new SourceMapConsumer(map);const lines=code.split('\n');const per={};
const ms=[];c.eachMapping(m=>ms.push(m));
ms.sort((a,b)=>a.generatedLine-b.generatedLine||a.generatedColumn-b.generatedColumn);
for(let i=0;i<ms.length;i++){const m=ms[i],n=ms[i+1];let len;if(n&&n.generatedLine===m.generatedLine)len=n.generatedColumn-m.generatedColumn;else len=lines[m.generatedLine-1].length-m.generatedColumn;let k=(m.source||'?').replace(/.*node_modules\//,'');if(process.argv[4]!=='files'){k=k.startsWith('@')?k.split('/').slice(0,2).join('/'):k.split('/')[0]}per[k]=(per[k]||0)+len}
console.log('total gz', (zlib.gzipSync(code,{level:9}).length/1000).toFixed(1));
Object.entries(per).sort((a,b)=>b[1]-a[1]).slice(0,+process.argv[3]||25).forEach(([k,v])=>console.log((v*ratio/1000).toFixed(1).padStart(6),k))
